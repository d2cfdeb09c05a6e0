-- The other half of the baseline: decoding the App Store files as refund-cost must, without
-- checking signatures. Every JWS payload (notifications' signedPayload, the
-- signedTransactionInfo nested in it, history pages' signedTransactions) is base64url-decoded
-- and parsed, and the fields the ledger uses are extracted. bench/run_bench.py replaces the
-- names in braces with paths.
CREATE MACRO jws_payload(jws) AS decode(from_base64(
    rpad(replace(replace(split_part(jws, '.', 2), '-', '+'), '_', '/'),
         ((length(split_part(jws, '.', 2)) + 3) // 4 * 4)::INTEGER, '=')))::JSON;

CREATE TEMP TABLE notifications AS
WITH payloads AS (
    SELECT jws_payload(signedPayload) AS p
    FROM read_json('{notifications}', format = 'newline_delimited', columns = {'signedPayload': 'VARCHAR'})
    WHERE signedPayload IS NOT NULL
)
SELECT p ->> 'notificationUUID' AS uuid, p ->> 'notificationType' AS type, p ->> 'subtype' AS subtype,
       (p ->> 'signedDate')::BIGINT AS signed_date, p -> 'data' ->> 'environment' AS environment,
       jws_payload(p -> 'data' ->> 'signedTransactionInfo') AS t
FROM payloads;

CREATE TEMP TABLE history AS
SELECT jws_payload(jws) AS t
FROM (SELECT unnest(signedTransactions) AS jws
      FROM read_json('{transactions}', format = 'newline_delimited', columns = {'signedTransactions': 'VARCHAR[]'}));

SELECT count(*) AS records, count(DISTINCT id) AS transactions, sum(purchase) % 1000 AS checksum FROM (
    SELECT t ->> 'transactionId' AS id, (t ->> 'purchaseDate')::BIGINT AS purchase, t ->> 'originalTransactionId' AS original,
           t ->> 'productId' AS product, (t ->> 'expiresDate')::BIGINT AS expires, (t ->> 'revocationDate')::BIGINT AS revoked,
           t ->> 'inAppOwnershipType' AS ownership, (t ->> 'price')::BIGINT AS price, t ->> 'appAccountToken' AS token
    FROM (SELECT t FROM notifications UNION ALL SELECT t FROM history)
    WHERE t IS NOT NULL);
