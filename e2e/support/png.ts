import { inflateSync } from 'node:zlib';

/** An 8-bit RGB(A) PNG decoded to its pixels (what Chromium writes for screenshots). */
export type TPngImage = { width: number; height: number; channels: number; pixels: Buffer };

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a non-interlaced 8-bit truecolour PNG (colour type 2 or 6) with node's zlib; throws on anything else. */
export function decodePng(file: Buffer): TPngImage {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('ascii', offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predictor = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : NaN;
      if (Number.isNaN(predictor)) throw new Error(`bad PNG filter ${filter} on line ${y}`);
      pixels[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many colours an image has, and the share of its pixels in the commonest one (1 = a single flat colour). */
export function describeColours(image: TPngImage): { colours: number; dominantShare: number } {
  const counts = new Map<number, number>();
  const total = image.width * image.height;
  for (let i = 0; i < total; i += 1) {
    const at = i * image.channels;
    const key = (image.pixels[at]! << 16) | (image.pixels[at + 1]! << 8) | image.pixels[at + 2]!;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return { colours: counts.size, dominantShare: total > 0 ? Math.max(...counts.values()) / total : 1 };
}
