export interface PageRequest {
  page: number;
  limit: number;
}

export const pageOffset = ({ page, limit }: PageRequest) => (page - 1) * limit;

export const pageCount = (total: number, limit: number) => Math.ceil(total / limit);
