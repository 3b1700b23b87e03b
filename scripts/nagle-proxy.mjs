// A TCP hop without TCP_NODELAY in front of IoTDB, as socat or a Node or Java proxy that does not set it: Nagle's
// algorithm holds a small write while an earlier one is unacknowledged, and the receiver's delayed ACK can take
// 40 ms. A client with two replies in flight at once stalls behind such a hop on every call; one with a request at
// a time only where the server writes a reply in two pieces. Forwards PROXY_PORT (default 6700) to IOTDB_HOST:IOTDB_PORT (default 127.0.0.1:6667) until killed.
//   node scripts/nagle-proxy.mjs &
//   IOTDB_PORT=6700 AB_BASE=/tmp/base node scripts/small-query-ab.mjs 300
import net from 'node:net';

const listen = Number(process.env.PROXY_PORT ?? 6700);
const [host, port] = [process.env.IOTDB_HOST ?? '127.0.0.1', Number(process.env.IOTDB_PORT ?? 6667)];

net
  .createServer((client) => {
    const server = net.connect({ host, port }); // noDelay false, Node's default: Nagle on, both ways
    client.pipe(server).pipe(client);
    const end = () => (client.destroy(), server.destroy());
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
  })
  .listen(listen, () => console.log(`nagle-proxy: ${listen} -> ${host}:${port}`));
