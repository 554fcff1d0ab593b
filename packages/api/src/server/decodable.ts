/** Whether every percent-escape in `text` decodes: `%ZZ`, a lone `%` or a cut UTF-8 sequence do not. */
export const decodable = (text: string) => {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};
