-- settlement_claim returns the claimed batch as one JSON array of arrays instead of a row
-- per trade (issue 16 item 1: the server's parse of 2,000 rows of 15 columns was the largest
-- part of its work a batch; server/sql/functions/030_trading.sql). Its return type changes,
-- which CREATE OR REPLACE cannot do: the old one is dropped here (on a new database it does
-- not exist yet: functions are applied after the migrations).
-- Never edit this file once it has landed; add a new numbered one.
DROP FUNCTION IF EXISTS settlement_claim(timestamptz, integer, integer, integer);
