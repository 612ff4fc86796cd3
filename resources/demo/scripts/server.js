/**
 * The inventory service over HTTP, as Baton's deploy starts it: on PORT, against DATABASE_URL.
 * GET /health answers 200 once the database has the schema this code needs (the feature's
 * migrations applied); GET /products lists the catalogue.
 */
import http from 'node:http';
import console from 'node:console';
import process from 'node:process';
import { createPool } from '../src/db.js';

const pool = createPool({ max: 2 });

async function answer(request, response) {
  if (request.url === '/health') {
    await pool.query('SELECT sku, qty, reorder_level FROM products LIMIT 1');
    return send(response, 200, { ok: true });
  }
  if (request.url === '/products') {
    const { rows } = await pool.query('SELECT sku, name, qty, reorder_level FROM products ORDER BY sku');
    return send(response, 200, rows);
  }
  return send(response, 404, { error: `no route ${request.url}` });
}

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const server = http.createServer((request, response) => {
  answer(request, response).catch((error) => send(response, 503, { error: error.message }));
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log(`inventory service on ${process.env.PORT ?? 3000}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
