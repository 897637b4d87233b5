// The documents both tools-knowledge entries ingest, and a small deterministic embedder.
import type { IngestDocument } from "@agentool/tools-knowledge";

/** Three short Markdown documents; only the pump manual mentions the pressure valve. */
export const KNOWLEDGE_DOCUMENTS: IngestDocument[] = [
  {
    id: "manuals/pump.md",
    source: "https://plant.example/manuals/pump",
    tags: ["manual"],
    text: "# Pump manual\n\n## Pressure valve\n\nInspect the pressure valve every week and replace it after 7 days of leaking.\n",
  },
  {
    id: "manuals/boiler.md",
    source: "https://plant.example/manuals/boiler",
    tags: ["manual"],
    text: "# Boiler manual\n\n## Water level\n\nKeep the water level between the two marks on the gauge glass.\n",
  },
  {
    id: "news/canteen.md",
    source: "https://plant.example/news/canteen",
    tags: ["news"],
    text: "# Canteen\n\nThe canteen serves soup on Fridays.\n",
  },
];

/** Dimensions of {@link hashingEmbeddings}' vectors. */
export const HASHING_DIMENSIONS = 64;

function embed(text: string): number[] {
  const vector = new Array<number>(HASHING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let hash = 2166136261;
    for (const character of word)
      hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16777619);
    const index = (hash >>> 0) % HASHING_DIMENSIONS;
    vector[index] = (vector[index] ?? 0) + 1;
  }
  return vector;
}

/** A LangChain-shaped embedder by feature hashing: same words, same vector; no model, no network. */
export const hashingEmbeddings = {
  embedDocuments: async (texts: string[]): Promise<number[][]> => texts.map(embed),
  embedQuery: async (text: string): Promise<number[]> => embed(text),
};
