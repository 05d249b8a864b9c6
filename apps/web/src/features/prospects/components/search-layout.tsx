import { useState, type ReactNode } from 'react';
import { Badge, Box, Button, Drawer, Grid } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';

/**
 * A search screen's filters and results. From the `md` breakpoint the filters are a column beside the results; below
 * it they fold behind a "Filters" button that opens them in a drawer, so the first result is on the first screen.
 */
export function SearchLayout({ filters, activeFilters, children }: { filters: ReactNode; activeFilters: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Box hiddenFrom="md" mb="sm">
        <Button
          variant="default"
          leftSection={<IconFilter size={16} />}
          rightSection={activeFilters > 0 ? <Badge size="sm" circle>{activeFilters}</Badge> : null}
          onClick={() => setOpen(true)}
          aria-label={activeFilters > 0 ? `Filters (${activeFilters} active)` : 'Filters'}
        >
          Filters
        </Button>
        <Drawer opened={open} onClose={() => setOpen(false)} title="Filters" position="left" size="100%">
          {open ? filters : null}
          <Button fullWidth mt="md" onClick={() => setOpen(false)}>
            Show results
          </Button>
        </Drawer>
      </Box>
      <Grid>
        <Grid.Col span={{ md: 4, lg: 3 }} visibleFrom="md">
          {filters}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>{children}</Grid.Col>
      </Grid>
    </>
  );
}
