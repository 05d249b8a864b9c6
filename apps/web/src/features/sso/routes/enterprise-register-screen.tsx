import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, List, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { SIGNUP_SOURCE_LABELS, ZSignupData, ZSignupRequest, ZSignupSource, type TSignupRequest } from '@verilead/contracts';
import { AuthCard } from '../../../components/auth-card';
import { requestApi } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { fetchSsoConfig } from '../api/sso-api';

const FIELDS = ['name', 'email', 'password', 'signup_source', 'signup_source_other'] as const;
const SOURCES = ZSignupSource.options.map((value) => ({ value, label: SIGNUP_SOURCE_LABELS[value] }));

/** /enterprise/register: a company account whose owner then sets up single sign-on for the team. */
export function EnterpriseRegisterScreen() {
  const [done, setDone] = useState<string | null>(null);
  const [hasSso, setHasSso] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TSignupRequest, unknown, z.output<typeof ZSignupRequest>>({
    resolver: zodResolver(ZSignupRequest),
    defaultValues: { name: '', email: '', password: '', signup_source: undefined as never },
  });
  const source = form.watch('signup_source');

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setHasSso(false);
    try {
      if ((await fetchSsoConfig(values.email)).sso_enabled) {
        setHasSso(true);
        return;
      }
      const data = await requestApi({ method: 'POST', path: '/user/signup', body: values, schema: ZSignupData, auth: false });
      setDone(data.message);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, FIELDS));
    }
  });

  if (done) {
    return (
      <AuthCard title="Your company account is ready">
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCheck size={18} />}>
            {done}
          </Alert>
          <Text size="sm">Next steps:</Text>
          <List size="sm" spacing={6}>
            <List.Item>Verify your e-mail address with the link we sent.</List.Item>
            <List.Item>Log in and open Account → Authentication to connect your identity provider (OpenID Connect or SAML 2.0) and your e-mail domains.</List.Item>
            <List.Item>Your colleagues then sign in with SSO and join your organisation on their first sign-in.</List.Item>
          </List>
          <Button component={Link} to="/login">
            Log in
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Register your company"
      subtitle={
        <>
          An enterprise account with single sign-on for your team. Already registered?{' '}
          <Anchor component={Link} to="/sso/signin" size="sm">
            Sign in with SSO
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
          {hasSso ? (
            <Alert color="indigo" variant="light" role="alert">
              Your company already signs in to Verilead with single sign-on.{' '}
              <Anchor component={Link} to="/sso/signin">
                Sign in with SSO
              </Anchor>
            </Alert>
          ) : null}
          <TextInput label="Your name" autoComplete="name" error={form.formState.errors.name?.message} {...form.register('name')} />
          <TextInput label="Work email" type="email" autoComplete="email" placeholder="you@company.com" error={form.formState.errors.email?.message} {...form.register('email')} />
          <PasswordInput label="Password" autoComplete="new-password" description="The owner keeps password login, even when the team must use SSO." error={form.formState.errors.password?.message} {...form.register('password')} />
          <Controller
            name="signup_source"
            control={form.control}
            render={({ field }) => <Select label="How did you hear about us?" data={SOURCES} value={field.value ?? null} onChange={(v) => field.onChange(v ?? undefined)} error={form.formState.errors.signup_source?.message} />}
          />
          {source === 'others' ? <TextInput label="Please specify" error={form.formState.errors.signup_source_other?.message} {...form.register('signup_source_other')} /> : null}
          <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting}>
            Register company
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
