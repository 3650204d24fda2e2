// Writes the shipped rule files (rulesets/**.rules) as one JSON object, path -> text, for
// the playground's menu: the page embeds it, so that no rule is fetched from anywhere.
import { readdirSync, readFileSync, writeFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const [root, out] = process.argv.slice(2);
const files = {};
function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith(".rules")) files[relative(root, p).split("\\").join("/")] = readFileSync(p, "utf8");
  }
}
walk(root);
writeFileSync(out, JSON.stringify(files));
console.log(`${Object.keys(files).length} rule files -> ${out}`);
