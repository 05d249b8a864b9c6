-- Issue 27 point 9: an Executive acts only on the webhooks they created (owners and Managers on all). Apps already
-- keep their creator (user_id); webhooks now keep theirs. Webhooks made before have none (null): owners' and
-- Managers' only. A member's account deleted leaves their webhooks to the owners and Managers.
ALTER TABLE "webhooks" ADD COLUMN "created_by" uuid;
--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
