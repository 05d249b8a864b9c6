// The announcements feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { registerAnnouncementOpsRoute, registerAnnouncementRoutes } from './routes';
export { clearAnnouncement, createAnnouncementClock, setAnnouncement } from './service';
export type { TAnnouncementClock } from './service';
