// Draws resources/icon.png (512×512): a relay baton across a rounded square. Run once; the PNG is committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const size = 512;
const pixels = Buffer.alloc(size * (size * 4 + 1));
const inRoundedSquare = (x, y) => {
  const r = 96,
    m = 16,
    lo = m + r,
    hi = size - m - r;
  const cx = Math.min(Math.max(x, lo), hi),
    cy = Math.min(Math.max(y, lo), hi);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const onBaton = (x, y) => {
  // A thick bar from bottom-left to top-right with round caps.
  const [ax, ay, bx, by] = [150, 362, 362, 150];
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return (x - (ax + t * (bx - ax))) ** 2 + (y - (ay + t * (by - ay))) ** 2 <= 46 ** 2;
};
for (let y = 0; y < size; y++) {
  const row = y * (size * 4 + 1);
  pixels[row] = 0;
  for (let x = 0; x < size; x++) {
    const i = row + 1 + x * 4;
    const color = !inRoundedSquare(x, y) ? [0, 0, 0, 0] : onBaton(x, y) ? [245, 189, 65, 255] : [32, 42, 68, 255];
    color.forEach((v, k) => (pixels[i + k] = v));
  }
}
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc(body));
  return Buffer.concat([len, body, sum]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header.set([8, 6, 0, 0, 0], 8);
writeFileSync(
  'resources/icon.png',
  Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]),
);
console.log('wrote resources/icon.png');
