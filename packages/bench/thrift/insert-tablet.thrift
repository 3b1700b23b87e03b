// The TSInsertTabletReq struct of IoTDB 2.0.1-beta (client.thrift), alone:
// compiled once with `thrift --gen js:node,es6` into src/generated/ for the naive baseline of
// `pnpm bench` (the thrift package's generated struct code). The client itself does not use it.
namespace js iotdb

struct TSInsertTabletReq {
  1: required i64 sessionId
  2: required string prefixPath
  3: required list<string> measurements
  4: required binary values
  5: required binary timestamps
  6: required list<i32> types
  7: required i32 size
  8: optional bool isAligned
  9: optional bool writeToTable
  10: optional list<i8> columnCategories
}
