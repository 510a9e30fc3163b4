-- attribution/vantage_counts: from whose timing each request was attributed, for the line `correlate` prints.
-- params:  none
-- returns: client_gateway_rows, gateway_rows, e2e_view_rows
--
-- client_gateway_rows: client rows whose network is split at a gateway (vantage client+gateway);
-- gateway_rows: gateway log rows standing in for an absent client (vantage gateway: attributed from
-- the gateway's view, production); e2e_view_rows: rows without a first-token time, attributed by the
-- end-to-end view (wrk, JMeter, gateways). docs/formats/gateways.md#three-vantage-points.
SELECT count(*) FILTER (WHERE vantage = 'client+gateway') AS client_gateway_rows,
       count(*) FILTER (WHERE vantage = 'gateway') AS gateway_rows,
       count(*) FILTER (WHERE timing_view = 'e2e') AS e2e_view_rows
FROM request_attribution
