import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, errors } from '../errors';

/**
 * What @fastify/multipart raises when a form holds more than the one file our uploads take (a
 * text field, a second file). It calls them 413, but nothing was too large: the form has the
 * wrong shape, which is the client's mistake to fix, not a size to shrink.
 */
const formShapeCodes: ReadonlySet<string> = new Set(['FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT']);

/** The invalid-request for a form that is not exactly one file part, or null for any other error. */
export function formShapeError(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && formShapeCodes.has(code) ? errors.invalidRequest({ location: 'body', field: 'file', reason: 'only-file' }) : null;
}

/**
 * Hands the form's one file (field `file`) to `use`. The parser's limits (one part, no fields)
 * can fire while the file is being read, so reading it happens in here too, where they are
 * turned into invalid-request.
 */
export async function withUploadedFile<T>(request: FastifyRequest, use: (file: MultipartFile) => Promise<T>): Promise<T> {
  if (!request.isMultipart()) throw new AppError('unsupported-media-type');
  try {
    const file = await request.file();
    if (file === undefined || file.fieldname !== 'file') throw errors.invalidRequest({ location: 'body', field: 'file', reason: 'required' });
    return await use(file);
  } catch (error) {
    throw formShapeError(error) ?? error;
  }
}
