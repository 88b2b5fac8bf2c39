// The architecture check, run by `npm test` (see docs/architecture.md):
// 1. the file-level rules of .dependency-cruiser.cjs (no import cycles; domain imports
//    nothing of server or web; server and web never import each other);
// 2. module-level cycles: the folders under server/src and under web/src are modules, and
//    the imports between them (type-only imports included: they couple as much) must form
//    no cycle. Files at the top of server/src and web/src are the composition root and the
//    shared kernel (app, routes, context, config, clock), outside the module graph.
// Exits 1 and names every violation and every cycle. ARCHITECTURE_CHECK_DIR checks another
// tree of the same layout instead of this repository (server/test/architecture-check.test.ts
// gives it trees with a cycle added on purpose).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";

const require = createRequire(import.meta.url);
const repositoryRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ruleSet = require("../.dependency-cruiser.cjs");
const checkedDirectory = process.env.ARCHITECTURE_CHECK_DIR ?? repositoryRoot;
process.chdir(checkedDirectory);
const roots = ["domain/src", "server/src", "web/src"].filter((root) => existsSync(root));

const result = await cruise(roots, {
  ...ruleSet.options,
  tsConfig: { fileName: path.join(repositoryRoot, "tsconfig.base.json") },
  ruleSet,
  validate: true,
  outputType: "json",
});
const graph = typeof result.output === "string" ? JSON.parse(result.output) : result.output;

const problems = [];
for (const violation of graph.summary.violations) {
  const cycle = violation.cycle?.map((step) => step.name ?? step).join(" → ");
  problems.push(`${violation.rule.name}: ${violation.from} → ${cycle ?? violation.to}`);
}

/** "server/src/funding/deposits.ts" → "server/funding"; root files → null. */
function moduleOf(file) {
  const match = /^(server|web)\/src\/([^/]+)\//.exec(file);
  return match ? `${match[1]}/${match[2]}` : null;
}

const edges = new Map();
const witness = new Map();
for (const module of graph.modules) {
  const from = moduleOf(module.source);
  if (!from) continue;
  for (const dependency of module.dependencies) {
    const to = moduleOf(dependency.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
    if (!witness.has(`${from}>${to}`)) {
      witness.set(`${from}>${to}`, `${module.source} → ${dependency.resolved}`);
    }
  }
}

// Tarjan's strongly connected components: any component of two or more modules is a cycle.
let index = 0;
const indices = new Map();
const lowLinks = new Map();
const stack = [];
const onStack = new Set();
function connect(node) {
  indices.set(node, index);
  lowLinks.set(node, index);
  index += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node) ?? []) {
    if (!indices.has(next)) {
      connect(next);
      lowLinks.set(node, Math.min(lowLinks.get(node), lowLinks.get(next)));
    } else if (onStack.has(next)) {
      lowLinks.set(node, Math.min(lowLinks.get(node), indices.get(next)));
    }
  }
  if (lowLinks.get(node) === indices.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) {
      const members = new Set(component);
      const links = [...witness.entries()]
        .filter(([key]) => {
          const [from, to] = key.split(">");
          return members.has(from) && members.has(to);
        })
        .map(([, example]) => `      ${example}`);
      problems.push(`module cycle: ${component.sort().join(" ↔ ")}\n${links.join("\n")}`);
    }
  }
}
for (const node of edges.keys()) if (!indices.has(node)) connect(node);

if (problems.length > 0) {
  console.error(`Architecture check failed (${problems.length}):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(
  `Architecture check: ${graph.summary.totalCruised} files, ${edges.size} modules, no cycles, no forbidden imports.`,
);
