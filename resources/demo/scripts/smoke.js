/** The deploy's verify run: the running service lists its catalogue (BASE_URL is where Baton started it). */
import console from 'node:console';
import process from 'node:process';
import { URL } from 'node:url';

const response = await globalThis.fetch(new URL('products', process.env.BASE_URL));
const body = await response.json();
if (response.status !== 200 || !Array.isArray(body)) {
  console.error(`GET /products answered ${response.status}: ${JSON.stringify(body)}`);
  process.exit(1);
}
console.log(`GET /products answered 200 with ${body.length} products`);
