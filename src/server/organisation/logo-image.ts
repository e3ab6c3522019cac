import type { OrganisationLogoType } from "../../shared/api/organisation.js";

/** What the bytes of an uploaded logo are, read from the file itself (never from a declared type). */
export interface SniffedImage {
  readonly type: OrganisationLogoType;
  readonly width: number;
  readonly height: number;
}

/**
 * The format and pixel size of a PNG, JPEG or WebP image from its header (PNG IHDR, JPEG SOFn,
 * WebP VP8/VP8L/VP8X), or undefined for anything else, SVG included. The size goes into the web
 * app manifest's `sizes`, which browsers need to pick an icon.
 */
export function sniffImage(bytes: Buffer): SniffedImage | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && bytes.toString("latin1", 12, 16) === "IHDR") {
    return sized("image/png", bytes.readUInt32BE(16), bytes.readUInt32BE(20));
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  if (bytes.length >= 30 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return webp(bytes);
  return undefined;
}

function sized(type: OrganisationLogoType, width: number, height: number): SniffedImage | undefined {
  return width > 0 && height > 0 ? { type, width, height } : undefined;
}

/** Walks the JPEG markers to the first start-of-frame (SOF0–SOF15 except DHT, JPG and DAC). */
function jpeg(bytes: Buffer): SniffedImage | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized("image/jpeg", bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5));
    }
    offset += 2 + length;
  }
  return undefined;
}

function webp(bytes: Buffer): SniffedImage | undefined {
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8X") return sized("image/webp", 1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return sized("image/webp", 1 + (bits & 0x3fff), 1 + ((bits >> 14) & 0x3fff));
  }
  if (chunk === "VP8 ") return sized("image/webp", bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  return undefined;
}
