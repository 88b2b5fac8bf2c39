-- settle_trades takes a batch's trades typed (trade_settlement_in[]) instead of as a JSON
-- array of objects (issue 16 item 1: parsing that JSON was a fifth of PostgreSQL's work a
-- batch; server/sql/functions/030_trading.sql). A function whose signature changes is
-- dropped here, so the JSON version cannot be called by mistake once the new one is applied
-- (on a new database it does not exist yet: functions are applied after the migrations).
-- Never edit this file once it has landed; add a new numbered one.
DROP FUNCTION IF EXISTS settle_trades(jsonb, jsonb, timestamptz, text);
