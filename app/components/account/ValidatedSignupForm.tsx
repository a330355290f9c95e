import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useMemo, type ComponentProps } from "react";
import { signupSchema } from "~/models/account-forms";
import { SignupForm, type SignupValidation } from "./SignupForm";

/**
 * The sign-up form with validation in the browser (conform + the server's zod schema): /signup and
 * the sign-up modal. The landing page renders SignupForm itself, without these libraries.
 */
export function ValidatedSignupForm(props: Omit<ComponentProps<typeof SignupForm>, "validation">) {
  const { minAge, lastResult, idPrefix = "signup" } = props;
  const schema = useMemo(() => signupSchema(minAge), [minAge]);
  const [form, fields] = useForm({
    id: idPrefix,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const validation: SignupValidation = {
    formProps: getFormProps(form),
    formErrorId: form.errorId,
    formErrors: form.errors,
    field: (name) => ({
      props: getInputProps(fields[name], { type: "text" }),
      errorId: fields[name].errorId,
      errors: fields[name].errors,
    }),
  };
  return <SignupForm {...props} validation={validation} />;
}
