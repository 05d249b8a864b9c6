import { useMemo, type CSSProperties, type MouseEvent } from 'react';
import DOMPurify from 'dompurify';
import { ActionIcon, Box, Group } from '@mantine/core';
import { IconSpeakerphone, IconX } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useAnnouncement } from '../api/announcement-api';
import { useDismissedAnnouncementStore } from '../stores/dismissed-announcement-store';

/** Sanitises announcement HTML: no scripts, handlers or unsafe URLs survive. */
export function sanitizeAnnouncementHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: ['a', 'b', 'strong', 'i', 'em', 'u', 'span', 'br', 'p', 'small', 'code'],
    ALLOWED_ATTR: ['href', 'target', 'rel', 'title', 'class'],
  });
}

/** Converts a CSS declaration map from the server (kebab or camel keys) into React style. */
function toStyle(styles: Record<string, string> | undefined): CSSProperties {
  const style: Record<string, string> = {};
  for (const [key, value] of Object.entries(styles ?? {})) {
    style[key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value;
  }
  return style as CSSProperties;
}

/** The path of a same-host link, or null for links leaving the app. */
export function getInAppPath(href: string, origin: string): string | null {
  try {
    const url = new URL(href, origin);
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The announcement bar on top of the app. */
export function AnnouncementBar() {
  const { data } = useAnnouncement();
  const navigate = useNavigate();
  const dismissedTimestamp = useDismissedAnnouncementStore((state) => state.dismissedTimestamp);
  const dismiss = useDismissedAnnouncementStore((state) => state.dismiss);
  const announcement = data?.announcement ?? null;
  const html = useMemo(() => (announcement ? sanitizeAnnouncementHtml(announcement.message) : ''), [announcement]);
  const visible = Boolean(announcement && html && dismissedTimestamp !== announcement.timestamp);
  if (!announcement || !visible) return null;

  const handleClick = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest('a');
    if (!anchor) return;
    const path = getInAppPath(anchor.getAttribute('href') ?? '', window.location.origin);
    if (path === null) {
      anchor.setAttribute('target', '_blank');
      anchor.setAttribute('rel', 'noopener noreferrer');
      return;
    }
    event.preventDefault();
    navigate(path);
  };

  return (
    <Box
      role="region"
      aria-label="Announcement"
      px="md"
      py={8}
      bg="indigo.7"
      c="white"
      style={{ fontSize: 14, ...toStyle(announcement.styles.top_container) }}
    >
      <Group gap="sm" wrap="nowrap" justify="center">
        <IconSpeakerphone size={18} style={{ flexShrink: 0 }} />
        <Box
          className="announcement-message"
          onClick={handleClick}
          dangerouslySetInnerHTML={{ __html: html }}
          style={{ flex: '0 1 auto', minWidth: 0 }}
        />
        {announcement.dismissable ? (
          <ActionIcon
            variant="subtle"
            color="white"
            size="sm"
            aria-label="Dismiss announcement"
            onClick={() => dismiss(announcement.timestamp)}
            style={toStyle(announcement.styles.close_btn)}
          >
            <IconX size={16} />
          </ActionIcon>
        ) : null}
      </Group>
    </Box>
  );
}
