import { buildHierarchy, layoutHierarchy } from '../src/app/tree/hierarchy';
import { buildParentIndex } from '../src/app/tree/graph';
import { syntheticTree } from '../tests/support/synthetic-tree';
const tree = syntheticTree({ nodes: 100000 });
for (let r = 0; r < 3; r++) {
  let t = performance.now();
  const pi = buildParentIndex(tree.nodes);
  const a = performance.now() - t; t = performance.now();
  const h = buildHierarchy(tree.nodes);
  const b = performance.now() - t; t = performance.now();
  layoutHierarchy(h.layer, h.primaryParent);
  const c = performance.now() - t;
  console.log({ parentIndex: a.toFixed(0), build: b.toFixed(0), layout: c.toFixed(0) });
}
