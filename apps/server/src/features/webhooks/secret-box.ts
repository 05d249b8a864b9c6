// Moved to the platform (integration credentials use it too); kept so the webhooks feature's imports stay as they were.
export * from '../../platform/secrets/secret-box';
