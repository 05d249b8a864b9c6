import { z } from 'zod';
import { ZPassword, ZPersonName } from '@verilead/contracts';

export const PASSWORD_HINT = 'At least 8 characters, with an upper-case letter, a lower-case letter and a digit.';

/** New password plus confirmation (and, for invited members, an optional name), on the contracts' policy. */
export const ZNewPasswordForm = z
  .object({
    name: z.union([ZPersonName, z.literal('')]).optional(),
    password: ZPassword,
    confirm_password: z.string().min(1, { message: 'Please confirm the password' }),
  })
  .refine((value) => value.password === value.confirm_password, {
    path: ['confirm_password'],
    message: 'Passwords do not match',
  });
export type TNewPasswordForm = z.infer<typeof ZNewPasswordForm>;
