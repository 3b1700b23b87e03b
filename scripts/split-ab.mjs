// insertTablets split over two DataNodes (the routes known from a warm-up call, so each call is one request per
// node): calls of 10 devices x 500 rows x 50 measurements of the anchor's types, the two sides alternating, five
// rounds of ten calls (the first a warm-up); prints the median ms and client CPU ms per call of each, and requests
// per call. With AB_BASE=<another checkout, built>, that build against this one (before and after a change);
// without, this build split by node against the same calls sent whole to the first node (enableRedirection: false).
// Writes root.split_ab (dropped before and after). Connects through IOTDB_HOST/IOTDB_PORT to a cluster of two
// DataNodes (DATANODES=2 bash scripts/iotdb-local.sh start <dir>); needs `pnpm build`.
//   node scripts/split-ab.mjs
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build) && AB_BASE=/tmp/base node scripts/split-ab.mjs
import { ab, tablets } from './ab.mjs';

await ab('insertTablets', 'root.split_ab', tablets, (Session) => ({
  'one node': new Session({ enableRedirection: false }),
  split: new Session(),
}));
