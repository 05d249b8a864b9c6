import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemberStatusBadge, describeMemberStatus } from './member-badges';

describe('member status', () => {
  it('shows an invited member as Invited only, never Invited and Active at once', () => {
    expect(describeMemberStatus({ status: 'active', has_password: false })).toBe('invited');
    expect(describeMemberStatus({ status: 'active', has_password: true })).toBe('active');
    expect(describeMemberStatus({ status: 'inactive', has_password: false })).toBe('inactive');
    expect(describeMemberStatus({ status: 'removed', has_password: false })).toBe('removed');
    render(
      <MantineProvider>
        <MemberStatusBadge member={{ status: 'active', has_password: false }} />
      </MantineProvider>,
    );
    expect(screen.getByText('Invited').textContent).toBe('Invited');
    expect(screen.queryByText('Active')).toBeNull();
  });
});
