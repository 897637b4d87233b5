import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadDocumentTool } from "../../../read-document.js";
import { odfPackage } from "../../../test-support/odf-fixture.js";
import { readFolder } from "../../../test-support/read-folder.js";

// pandoc 2.17 writes inline code in an .odt as spans of its own text style `Source_Text` (one
// underscore, no display name), where LibreOffice's own is `Source_20_Text` ("Source Text").
const PANDOC_STYLES =
  '<style:style style:name="Source_Text" style:family="text"><style:text-properties style:font-name="Courier New" fo:font-size="10pt"/></style:style>';

let folder: ReturnType<typeof readFolder>;
beforeAll(() => {
  folder = readFolder({
    "caa.odt": odfPackage(
      "application/vnd.oasis.opendocument.text",
      PANDOC_STYLES,
      "<office:text>" +
        '<text:p text:style-name="Text_20_body">The records of the <text:span text:style-name="Source_Text">hostname</text:span> (e.g. <text:span text:style-name="Source_Text">[{critical: 0, iodef: \'mailto:pki@example.com\'}]</text:span>).</text:p>' +
        '<text:p text:style-name="Text_20_body">LibreOffice\'s own: <text:span text:style-name="Source_20_Text">make</text:span>.</text:p>' +
        "</office:text>",
    ),
  });
});
afterAll(() => folder.remove());

describe("read_document on an .odt pandoc wrote", () => {
  it("reads pandoc's Source_Text spans as inline code, like LibreOffice's Source_20_Text", async () => {
    const result = await createReadDocumentTool({ root: folder.root }).run({ path: "caa.odt" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.markdown).toBe(
      "The records of the `hostname` (e.g. `[{critical: 0, iodef: 'mailto:pki@example.com'}]`).\n\nLibreOffice's own: `make`.",
    );
  });
});
