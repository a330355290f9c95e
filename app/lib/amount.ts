/** An amount as an operator types it ("12", "12.50" or "12,50") → minor units (cents); the console's forms share it. */
import { z } from "zod";

export const amountCentsSchema = z
  .string()
  .trim()
  .regex(/^\d{1,7}(?:[.,]\d{1,2})?$/, "Write an amount such as 12.50")
  .transform((v) => {
    const [whole, frac = ""] = v.split(/[.,]/) as [string, string?];
    return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  });
