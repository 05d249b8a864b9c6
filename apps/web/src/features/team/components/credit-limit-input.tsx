import { NumberInput } from '@mantine/core';

/** A credit limit: a whole number of credits, empty for unlimited (or "no change" where the caller says so). */
export function CreditLimitInput({
  label,
  description,
  value,
  onChange,
  error,
  placeholder = 'Unlimited',
  disabled,
}: {
  label: string;
  description?: string;
  value: number | null | undefined;
  onChange: (value: number | null) => void;
  error?: string;
  placeholder?: string;
  disabled?: boolean;
}) {
  return (
    <NumberInput
      label={label}
      description={description}
      placeholder={placeholder}
      min={0}
      max={1_000_000_000}
      step={100}
      thousandSeparator=","
      allowDecimal={false}
      allowNegative={false}
      value={value ?? ''}
      onChange={(next) => onChange(typeof next === 'number' ? next : null)}
      error={error}
      disabled={disabled}
    />
  );
}
