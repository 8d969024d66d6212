-- A download is counted against its address's network: an IPv6 address as its /64, an IPv4-mapped
-- IPv6 address as the IPv4 address (docs/decisions/0020). The logged addresses take the same form,
-- so the per-address cap and the suspicious-activity view see one network as one address.
UPDATE "downloads" SET "ip_address" = substring("ip_address" from 8)
  WHERE "ip_address" ~* '^::ffff:[0-9]{1,3}(\.[0-9]{1,3}){3}$';
--> statement-breakpoint
UPDATE "downloads" SET "ip_address" = network(set_masklen("ip_address"::inet, 64))::text
  WHERE "ip_address" LIKE '%:%' AND "ip_address" ~ '^[0-9a-fA-F:.]+$';
