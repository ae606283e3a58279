"""Notices: the in-site notices table, the mail/webhook outbox and its worker, and the
hook that turns game changes into notices."""
