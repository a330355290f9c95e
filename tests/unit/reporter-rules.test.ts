/** The hint of DSA Art. 23 on a reporter's record (decision 225): its counts and its threshold's edges. */
import { describe, expect, it } from "vitest";
import { crossesHint, reporterStats, type NoticeOutcome } from "../../app/models/reporter-rules";

const of = (action: number, noAction: number, pending = 0): NoticeOutcome[] => [
  ...Array<NoticeOutcome>(action).fill("action"),
  ...Array<NoticeOutcome>(noAction).fill("no_action"),
  ...Array<NoticeOutcome>(pending).fill("pending"),
];

describe("a reporter's hint", () => {
  it("counts outcomes and the share unfounded of the decided ones only", () => {
    expect(reporterStats(of(1, 3, 2))).toEqual({ total: 6, action: 1, noAction: 3, pending: 2, unfoundedShare: 0.75 });
    expect(reporterStats(of(0, 0, 4)).unfoundedShare).toBe(0);
  });

  it("needs at least 5 decided notices, at least 80 % of them without action; pending ones count for neither", () => {
    expect(crossesHint(reporterStats(of(0, 4, 10)))).toBe(false);
    expect(crossesHint(reporterStats(of(0, 5)))).toBe(true);
    expect(crossesHint(reporterStats(of(1, 4)))).toBe(true);
    expect(crossesHint(reporterStats(of(2, 7)))).toBe(false); // 77.8 %
    expect(crossesHint(reporterStats(of(2, 8)))).toBe(true);
  });
});
