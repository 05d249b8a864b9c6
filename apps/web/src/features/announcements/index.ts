/**
 * The announcements feature's public face: the only file of it that the app shell or another feature may import (lint
 * holds this). The bar stands above every logged-in page, so the app layout mounts it.
 */
export { AnnouncementBar } from './components/announcement-bar';
