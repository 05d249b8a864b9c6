// The dynamic import target of NotificationsHost: importing the package index there would pull every export into the entry.
export { Notifications } from '@mantine/notifications';
