// insertRecords sent as records vs as their devices' tablets (the recordsAsTablets option), in the same run:
// calls of 10 devices x 500 rows x 50 measurements of the anchor's types, the two alternating, five rounds of ten
// calls; prints the median ms and client CPU ms per call of each. Writes root.records_ab (dropped before and after).
// Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`. With AB_BASE=<another checkout, built>, compares
// that build's insertRecords with this one's instead (both with the default options), e.g. before and after a change:
//   node scripts/records-ab.mjs
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build) && AB_BASE=/tmp/base node scripts/records-ab.mjs
import { ab, records } from './ab.mjs';

await ab('insertRecords', 'root.records_ab', records, (Session) => ({
  'as records': new Session({ recordsAsTablets: false }),
  'as tablets': new Session(),
}));
