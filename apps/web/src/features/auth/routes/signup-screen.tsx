import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, PasswordInput, Select, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { SIGNUP_SOURCE_LABELS, ZSignupRequest, ZSignupSource, type TSignupData } from '@verilead/contracts';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSignup } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { DemoNoticeSlot } from '../components/demo-notice-slot';
import { PASSWORD_HINT } from '../components/new-password-form';
import { saveSignupSignIn } from '../stores/signup-sign-in-store';

type TSignupForm = z.input<typeof ZSignupRequest>;

const SOURCE_OPTIONS = ZSignupSource.options.map((value) => ({ value, label: SIGNUP_SOURCE_LABELS[value] }));

export function SignupScreen() {
  const location = useLocation();
  const signup = useSignup();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<TSignupData | null>(null);
  const form = useForm<TSignupForm, unknown, z.output<typeof ZSignupRequest>>({
    resolver: zodResolver(ZSignupRequest),
    defaultValues: { name: '', email: '', password: '', signup_source: undefined, signup_source_other: '' },
  });
  const source = form.watch('signup_source');

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const body = { ...values, signup_source_other: values.signup_source === 'others' ? values.signup_source_other : undefined };
      const answer = await signup.mutateAsync(body);
      // Following the mailed link in this browser signs the person in (the server honours the key once, for an hour).
      saveSignupSignIn(answer.email, answer.sign_in_key);
      setDone(answer);
    } catch (error) {
      setFormError(
        applyServerErrors(error, form.setError, ['name', 'email', 'password', 'signup_source', 'signup_source_other']),
      );
    }
  });

  if (done) {
    return (
      <AuthCard title="Check your inbox">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" color="teal">
            <IconMailCheck size={30} />
          </ThemeIcon>
          {/* The same words whether the address was new or had an account: sign-up never tells which. */}
          <Text>
            We sent a message to <strong>{done.email}</strong>. If this is a new account, open the link in it in this browser:
            it verifies your address and signs you in (or log in now and verify later). If the address already has an
            account, the message tells you how to log in or reset your password.
          </Text>
          <Button component={Link} to="/login" variant="light" fullWidth>
            Go to login
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to={`/login${location.search}`} size="sm">
            Log in
          </Anchor>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError}
            </Alert>
          ) : null}
          <TextInput label="Full name" autoComplete="name" error={form.formState.errors.name?.message} {...form.register('name')} />
          <TextInput
            label="Work email"
            type="email"
            autoComplete="email"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description={PASSWORD_HINT}
            error={form.formState.errors.password?.message}
            {...form.register('password')}
          />
          <Controller
            control={form.control}
            name="signup_source"
            render={({ field, fieldState }) => (
              <Select
                label="How did you hear about us?"
                placeholder="Choose one"
                data={SOURCE_OPTIONS}
                value={field.value ?? null}
                onChange={(value) => field.onChange(value ?? undefined)}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
                allowDeselect={false}
              />
            )}
          />
          {source === 'others' ? (
            <TextInput
              label="Please specify"
              placeholder="Where did you find us?"
              error={form.formState.errors.signup_source_other?.message}
              {...form.register('signup_source_other')}
            />
          ) : null}
          <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting}>
            Create account
          </Button>
          {/* Last: the notice loads after the page, and below the form it moves nothing a person is about to click. */}
          <DemoNoticeSlot />
        </Stack>
      </form>
    </AuthCard>
  );
}
