import {
  AppError,
  commitUpload,
  discardUpload,
  stageUpload,
  type StagedUpload,
} from '@chorus/services';
import { ZAltText } from '@chorus/validators';
import { controlRefusal } from '../server/refuse-control';
import type { Answer } from '../server/node-fetch';
import { json } from '../server/respond';
import { signedIn, type HandlerContext } from '../rest/routes';
import { readUploadForm } from './multipart';

function altTextOf(fields: Map<string, string>): string | null {
  const value = fields.get('altText');
  if (value === undefined) return null;
  const refused = controlRefusal({ altText: value });
  if (refused) throw refused;
  const parsed = ZAltText.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? 'Invalid.';
  throw new AppError('validation_error', 'The request is not valid.', {
    issues: [{ path: 'altText', message }],
  });
}

/**
 * `POST /api/content/media` (docs/media.md): the file streams into storage as it arrives;
 * the record and its event are written once the bytes are whole. An `Idempotency-Key` retry
 * (docs/media.md) is recognised by what was uploaded (name, alt text, SHA-256), since
 * multipart boundaries differ between retries: its bytes are dropped and the first answer
 * replayed.
 */
export async function handleUpload(req: Request, ctx: HandlerContext): Promise<Answer> {
  const { db, storage, headers } = ctx;
  const principal = signedIn(ctx);
  const form = await readUploadForm<StagedUpload>(req, {
    maxFileBytes: ctx.maxUploadBytes,
    onFile: (file, filename) =>
      stageUpload({ storage, principal, file, filename, maxBytes: ctx.maxUploadBytes }),
    undo: (staged) => discardUpload({ storage, staged }),
  });
  const staged = form.file;
  let committed = false;
  try {
    const altText = altTextOf(form.fields);
    const { filename, mimeType, size, sha256 } = staged;
    return await ctx.idempotent({ filename, mimeType, size, sha256, altText }, async () => {
      const data = await commitUpload({ db, principal, staged, altText, origin: ctx.origin });
      committed = true;
      return json(201, { success: true, data }, headers);
    });
  } finally {
    if (!committed) await discardUpload({ storage, staged });
  }
}
