-- report/has_server_config: does the current catalog hold the server_config table (databases written before it existed do not)?
-- params:  none
-- returns: present
SELECT count(*) > 0 AS present
FROM information_schema.tables
WHERE table_catalog = current_database() AND table_name = 'server_config'
