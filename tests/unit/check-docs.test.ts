/**
 * scripts/check-docs.mjs (part of `npm run lint`) on a small tree: what it refuses and what it lets
 * through, so a change to the checker cannot quietly stop refusing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const script = join(import.meta.dirname, "../../scripts/check-docs.mjs");

function tree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "check-docs-"));
  const base: Record<string, string> = {
    "app/routes/admin/admin.brands._index.tsx": "",
    "app/routes/admin/admin.brands.$id.tsx": "",
    "app/routes/api/api.page-hidden[.]php.ts": "",
    "app/models/wallet.server.ts": "",
    "db/schema.ts": 'export const ageProofs = sqliteTable("age_proofs", {});',
    "docs/decisions/001-first.md": "# 001 First\n\nDate: 2026-11-21\nStatus: superseded by 002\n\nText.\n",
    "docs/decisions/002-second.md": "# 002: Second\n\nDate: 2026-11-22\nStatus: accepted\n\nText.\n",
    "docs/decisions/README.md":
      "# Decisions\n\n| decision | status | date | in one line |\n| --- | --- | --- | --- |\n" +
      "| [001 First](001-first.md) | superseded by 002 | 2026-11-21 | The first. |\n" +
      "| [002 Second](002-second.md)   |   accepted | 2026-11-22 | The second. |\n",
    "README.md": "# Readme\n",
    ...files,
  };
  for (const [path, text] of Object.entries(base)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string, ...args: string[]): { ok: boolean; out: string } {
  try {
    return {
      ok: true,
      out: execFileSync("node", [script, `--root=${root}`, ...args], { encoding: "utf8", stdio: "pipe" }),
    };
  } catch (e) {
    const err = e as { stdout: string; stderr: string };
    return { ok: false, out: err.stdout + err.stderr };
  }
}

/** The check's complaints, once it has failed. */
function refused(root: string): string {
  const { ok, out } = check(root);
  expect(ok).toBe(false);
  return out;
}

describe("check-docs", () => {
  it("passes a tree whose decisions are indexed and whose docs announce only what does not exist", () => {
    const root = tree({
      "docs/architecture.md":
        "# A\n\nMarked `Not built yet:` when missing.\n\n**Not built yet:** restores (`/admin/restore`, `app/wallet/index.ts`, `restore_log`).\n",
    });
    expect(check(root)).toMatchObject({ ok: true });
  });

  it("refuses a Not built yet that names an existing route, file or table, or names nothing", () => {
    const root = tree({
      "docs/architecture.md":
        "# A\n\n**Not built yet:** brands in the console (`/admin/brands/<id>`).\n\n" +
        "- **Not built yet:** the wallet module (app/models/wallet.server.ts) and `age_proofs`.\n\n" +
        "**Not built yet:** `/api/page-hidden.php`.\n\nSection 9 is not built yet.\n",
    });
    const out = refused(root);
    expect(out).toContain("names the route /admin/brands/x, which exists");
    expect(out).toContain("names the file app/models/wallet.server.ts, which exists");
    expect(out).toContain("names the table age_proofs, which exists");
    expect(out).toContain("names the route /api/page-hidden.php, which exists");
    expect(out).toContain('docs/architecture.md:9: a "Not built yet" passage must name');
  });

  it("refuses issue numbers and machine paths in the repository's files", () => {
    // Written in pieces: this file is checked too.
    const [issue, hash, work] = [["iss", "ue"].join(""), ["(", "#"].join(""), ["/", "work/"].join("")];
    const root = tree({
      "app/lib/x.ts": `// see ${issue} 12\n// ${issue} #23\nconst a = 1; // ${hash}41)\n`,
      "tests/unit/y.test.ts": `// design in ${work}notes/D23.md\n`,
    });
    const out = refused(root);
    for (const where of ["app/lib/x.ts:1", "app/lib/x.ts:2", "app/lib/x.ts:3", "tests/unit/y.test.ts:1"])
      expect(out).toContain(where);
  });

  it("refuses a decision without date or status, missing from the index, or with another status there", () => {
    const root = tree({
      "docs/decisions/003-third.md": "# 003 Third\n\nStatus: accepted\n\nText.\n",
      "docs/decisions/002-second.md": "# 002: Second\n\nDate: 2026-11-22\nStatus: superseded by 009\n\nText.\n",
    });
    const out = refused(root);
    expect(out).toContain('003-third.md: no "Date: YYYY-MM-DD" line');
    expect(out).toContain("decision 003 (003-third.md) is not listed");
    expect(out).toContain("superseded by 009, which is not another decision");
    expect(out).toContain('decision 002 is "accepted" here, "superseded by 009" in its file');
  });

  it("--write lists a new decision with TODO, which the check refuses until its line is written", () => {
    const root = tree({
      "docs/decisions/003-third.md": "# 003 Third\n\nDate: 2026-11-27\nStatus: accepted\n\nText.\n",
    });
    expect(check(root, "--write")).toMatchObject({ ok: true });
    const out = refused(root);
    expect(out).toContain("decision 003 needs its one line");
    expect(out).not.toContain("decision 001");
  });

  describe("pages and citations (decision 232)", () => {
    const pages = {
      "docs/architecture/README.md": "# Architecture\n\n| § | page |\n| 4 | [money.md](money.md) |\n\nSee §4 and §5.\n",
      "docs/architecture/money.md":
        "# Money\n\n## 4. Money\n\nHeld as in §4; rules in [security.md](security.md)\n§5; texts in\n" +
        "[validation.md](../product/validation.md) §5 and §8. Not ISO 18013-5 §9.3.1, nor § 5 DDG.\n",
      "docs/architecture/security.md": "# Security\n\n## §5 Security\n\nSee [money](money.md#4-money).\n",
      "docs/product/validation.md": "# Validation\n\n## 5. Validation rules\n\n## 8. Error catalogue\n",
      "README.md": "# Readme\n\n[Docs](docs/architecture/README.md), [money](docs/architecture/money.md) §4.\n",
      "app/models/x.server.ts":
        "/** The wallet (docs/architecture/money.md §4; docs/product/validation.md §5, §8 and §5). */\n" +
        "/**\n * Wrapped (docs/architecture/security.md\n * §5), and named: docs/product/validation.md.\n */\n",
    };

    it("passes pages whose cited sections, named pages and links exist", () => {
      expect(check(tree(pages))).toMatchObject({ ok: true });
    });

    it("refuses a citation of a section the page does not have, or of a page that does not exist", () => {
      const root = tree({
        ...pages,
        "docs/architecture/money.md": "# Money\n\n## Money\n\nText.\n",
        "app/models/x.server.ts":
          "// docs/architecture/money.md §4\n// docs/product/validation.md §5, §6 and §8\n" +
          "// docs/architecture.md §5\n// see docs/product.md\n",
      });
      const out = refused(root);
      expect(out).toContain('app/models/x.server.ts:1: cites docs/architecture/money.md §4, which has no heading "4."');
      expect(out).toContain('app/models/x.server.ts:2: cites docs/product/validation.md §6, which has no heading "6."');
      expect(out).not.toContain("validation.md §8,");
      expect(out).toContain(
        "app/models/x.server.ts:3: cites docs/architecture.md §5, which does not exist (§5 is now in docs/architecture/security.md)",
      );
      expect(out).toContain("app/models/x.server.ts:4: names docs/product.md, which does not exist");
      expect(out).toContain('README.md:3: cites docs/architecture/money.md §4, which has no heading "4."');
      expect(out).toContain("docs/architecture/README.md:6: §4 is not a section of a page of this folder");
    });

    it("refuses a bare § that is not a section of its page, a broken link and a page over 150 lines", () => {
      const root = tree({
        ...pages,
        "docs/product/validation.md": "# Validation\n\n## 5. Validation rules\n\nSee §8 and [api](api.md).\n",
        "docs/architecture/security.md": `# Security\n\n## 5. Security\n\n${"A line.\n".repeat(147)}`,
        "docs/decisions/002-second.md": `# 002: Second\n\nDate: 2026-11-22\nStatus: accepted\n\n${"A line.\n".repeat(200)}`,
      });
      const out = refused(root);
      expect(out).toContain("docs/product/validation.md:5: §8 is not a section of this page");
      expect(out).toContain("docs/product/validation.md:5: links api.md, which does not exist");
      expect(out).toContain("docs/architecture/money.md:7: cites docs/product/validation.md §8");
      expect(out).toContain("docs/architecture/security.md: 151 lines, more than 150");
      expect(out).not.toContain("002-second.md: ");
    });
  });
});
