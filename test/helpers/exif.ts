// Minimal EXIF (TIFF structure) reader, used by tests to prove that a generated
// input really carries the metadata (GPS in particular) the processor must drop.

const GPS_IFD_POINTER_TAG = 0x8825;
const ORIENTATION_TAG = 0x0112;

export interface ExifSummary {
  /** Tag ids present in IFD0. */
  ifd0Tags: number[];
  /** Tag ids present in the GPS IFD; empty when there is no GPS IFD. */
  gpsTags: number[];
  orientation: number | undefined;
}

/** Parses the raw EXIF block as returned by sharp's metadata().exif. */
export function readExif(exif: Buffer): ExifSummary {
  // sharp returns the APP1 payload, which starts with "Exif\0\0".
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') throw new Error(`not a TIFF structure (byte order "${order}")`);
  const little = order === 'II';
  const u16 = (offset: number): number => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number): number => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  if (u16(2) !== 42) throw new Error('bad TIFF magic number');

  const readIfd = (offset: number): Map<number, { type: number; valueOffset: number }> => {
    const entries = new Map<number, { type: number; valueOffset: number }>();
    const count = u16(offset);
    for (let i = 0; i < count; i++) {
      const entry = offset + 2 + i * 12;
      entries.set(u16(entry), { type: u16(entry + 2), valueOffset: entry + 8 });
    }
    return entries;
  };

  const ifd0 = readIfd(u32(4));
  const gpsPointer = ifd0.get(GPS_IFD_POINTER_TAG);
  const gps = gpsPointer ? readIfd(u32(gpsPointer.valueOffset)) : new Map();
  const orientationEntry = ifd0.get(ORIENTATION_TAG);
  return {
    ifd0Tags: [...ifd0.keys()],
    gpsTags: [...gps.keys()],
    // SHORT value, stored left-justified in the 4-byte value field.
    orientation: orientationEntry ? u16(orientationEntry.valueOffset) : undefined,
  };
}
