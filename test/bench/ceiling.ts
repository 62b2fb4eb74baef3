// A ceiling for the benchmark: serves one fixed JSON body, either from bare node:http or from a
// minimal Koa + @koa/router route. Prints its port on stdout, runs until killed.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';

const [kind, bodyFile] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile!, 'utf8');
let handler: http.RequestListener;
if (kind === 'bare') {
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
} else {
  const app = new Koa();
  const router = new Router();
  router.get('/api/v2/cards/:card_id', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  app.use(router.routes());
  handler = app.callback();
}
const server = http.createServer(handler);
server.keepAliveTimeout = 65_000;
process.on('SIGINT', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
