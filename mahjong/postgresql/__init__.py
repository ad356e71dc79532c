"""Django's PostgreSQL backend, whose pool checks each loan with ``pool_check``
(settings: DB_POOL sets ENGINE to this package)."""
