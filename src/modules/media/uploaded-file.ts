// What the HTTP layer hands the media service after reading an upload (src/http/upload-reader.ts).

/** The multipart form field that carries the image. */
export const FILE_FIELD = 'file';

export interface UploadedFile {
  data: Buffer;
  /** Hex SHA-256 of `data`. */
  sha256: string;
}
