import { TextField } from "~/components/ui";

/** The USI input of registration, Edit Profile and Edit Student: one label, one hint. */
export function UsiField({ defaultValue, error, verified }: { defaultValue?: string; error?: string; verified?: boolean }) {
  const state =
    verified === undefined ? "" : verified ? " Verified with the USI Registry." : " Not yet verified: the training office checks it with the USI Registry.";
  return (
    <TextField
      label="USI (Unique Student Identifier)"
      name="usi"
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={20}
      defaultValue={defaultValue}
      error={error}
      hint={`10 characters, from your account at usi.gov.au (INDIV or INTOFF if you are exempted). Needed before a certificate can be issued.${state}`}
    />
  );
}
