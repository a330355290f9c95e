/**
 * The account forms' zod schemas, shared by server (actions) and browser (conform): one set of
 * rules on both sides. Messages are keys of the `account` namespace ("errors.*"), translated where
 * they are shown, so the same rule speaks every language.
 */
import { ageOn, isRealDate } from "~/lib/dates";
import { line, paragraph } from "~/lib/text";
import { z } from "zod";
import { lazy } from "~/lib/lazy";

import { NAME_MAX, NAME_MIN, PASSWORD_MIN, SEEKING, SIGNUP_MESSAGE_MAX } from "./signup-rules";

export const OLDEST_AGE = 120;

const email = (message: string) =>
  z.string({ required_error: message }).trim().toLowerCase().max(254, message).email(message);
const password = z
  .string({ required_error: "errors.passwordShort" })
  .min(PASSWORD_MIN, "errors.passwordShort")
  .max(200, "errors.passwordShort");

/** Whole years between an ISO date of birth and today; null when the date is not a real date. */
export function validAgeOn(dob: string, today: Date): number | null {
  return isRealDate(dob) ? ageOn(dob, today) : null;
}

/**
 * docs/product/validation.md §5: the username may not equal the e-mail or start with @; the date of birth must
 * be real and at least the brand's minimum age ('Enter your date of birth ({min_age}+)').
 */
export function signupSchema(minAge: number, today = new Date()) {
  return z
    .object({
      email: email("errors.emailInvalid"),
      name: line(
        z
          .string({ required_error: "errors.nameLength" })
          .min(NAME_MIN, "errors.nameLength")
          .max(NAME_MAX, "errors.nameLength"),
      ),
      date_of_birth: z.string({ required_error: "errors.dobRequired" }),
      signup_message: paragraph(z.string().max(SIGNUP_MESSAGE_MAX, "errors.messageTooLong").optional()),
      password,
      profile: z.string().max(64).optional(),
      // Who the member is and whom they look for; a form of a niche that decides both sends neither.
      gender: z.enum(["male", "female"], { errorMap: () => ({ message: "errors.generic" }) }).optional(),
      seeking: z.enum(SEEKING, { errorMap: () => ({ message: "errors.generic" }) }).optional(),
      // The opt-in to marketing mails (MARKETING_TYPES): unticked by default; only "on" (a ticked box) says yes.
      marketing: z.literal("on").optional(),
      // The honeypot: invisible to people, filled in by bots.
      website: z.string().max(0, "errors.generic").optional(),
    })
    .superRefine((v, ctx) => {
      if (v.name.startsWith("@")) ctx.addIssue({ code: "custom", path: ["name"], message: "errors.nameAt" });
      else if (v.name.trim().toLowerCase() === v.email)
        ctx.addIssue({ code: "custom", path: ["name"], message: "errors.nameIsEmail" });
      const age = validAgeOn(v.date_of_birth, today);
      if (age === null || age > OLDEST_AGE || age < 0) {
        ctx.addIssue({
          code: "custom",
          path: ["date_of_birth"],
          message: v.date_of_birth ? "errors.dobInvalid" : "errors.dobRequired",
        });
      } else if (age < minAge) {
        ctx.addIssue({ code: "custom", path: ["date_of_birth"], message: "errors.tooYoung" });
      }
    });
}

export const loginSchema = lazy(() =>
  z.object({
    email: z.string({ required_error: "errors.loginFailed" }).trim(),
    password: z.string({ required_error: "errors.loginFailed" }),
    redirectTo: z.string().optional(),
  }),
);

export const resetRequestSchema = lazy(() => z.object({ email: email("errors.emailInvalid") }));

const withConfirmation = <T extends z.ZodRawShape>(shape: T) =>
  z
    .object({ ...shape, password, password_confirm: z.string({ required_error: "errors.passwordMismatch" }) })
    .refine((v) => v.password === v.password_confirm, {
      path: ["password_confirm"],
      message: "errors.passwordMismatch",
    });

export const resetSchema = withConfirmation({ token: z.string().min(1) });

export const changePasswordSchema = withConfirmation({
  intent: z.literal("password"),
  old_password: z.string({ required_error: "errors.oldPassword" }),
});

/** Changing the address that receives reset links needs the current password (decision 087). */
export const changeEmailSchema = lazy(() =>
  z.object({
    intent: z.literal("email"),
    new_email: email("errors.newEmailInvalid"),
    password: z
      .string({ required_error: "errors.oldPassword" })
      .min(1, "errors.oldPassword")
      .max(200, "errors.oldPassword"),
  }),
);

export const DELETE_REASONS = [
  "price",
  "found_someone",
  "not_looking",
  "site_problems",
  "not_enough_members",
  "time",
  "other",
] as const;

export const deleteSchema = lazy(() =>
  z.object({
    reason: z.enum(DELETE_REASONS, { errorMap: () => ({ message: "errors.reasonRequired" }) }),
    remarks: paragraph(z.string().max(2000, "errors.messageTooLong").optional()),
  }),
);
