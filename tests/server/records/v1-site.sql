BEGIN TRANSACTION;
CREATE TABLE admin_actions (
	id INTEGER NOT NULL, 
	admin_id INTEGER, 
	admin_username VARCHAR(32) NOT NULL, 
	action VARCHAR(32) NOT NULL, 
	game_id VARCHAR(16), 
	dispute_id INTEGER, 
	reason VARCHAR(2000) NOT NULL, 
	detail JSON, 
	created_at DATETIME NOT NULL, 
	CONSTRAINT pk_admin_actions PRIMARY KEY (id), 
	CONSTRAINT fk_admin_actions_admin_id_users FOREIGN KEY(admin_id) REFERENCES users (id)
);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0004');
CREATE TABLE auth_tokens (
	id INTEGER NOT NULL, 
	user_id INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	token_hash VARCHAR(64) NOT NULL, 
	name VARCHAR(64), 
	created_at DATETIME NOT NULL, 
	expires_at DATETIME, 
	revoked_at DATETIME, 
	CONSTRAINT pk_auth_tokens PRIMARY KEY (id), 
	CONSTRAINT fk_auth_tokens_user_id_users FOREIGN KEY(user_id) REFERENCES users (id) ON DELETE CASCADE, 
	CONSTRAINT uq_auth_tokens_token_hash UNIQUE (token_hash)
);
INSERT INTO "auth_tokens" VALUES(1,1,'session','6292234ad0f035c28d00c473a8d7a539fa42b5c2fde6076e08893c118a2d080e',NULL,'2026-12-01 03:52:36.202371','2026-12-31 03:52:36.202174',NULL);
INSERT INTO "auth_tokens" VALUES(2,2,'session','41ec88ad3f08c197f1eb40c4f155e3a4f4d0812628aa842b51b61c174843ed29',NULL,'2026-12-01 03:52:37.089040','2026-12-31 03:52:37.088965',NULL);
CREATE TABLE chat_messages (
	id INTEGER NOT NULL, 
	game_id VARCHAR(16) NOT NULL, 
	channel VARCHAR(16) NOT NULL, 
	user_id INTEGER NOT NULL, 
	username VARCHAR(32) NOT NULL, 
	body VARCHAR(500) NOT NULL, 
	created_at DATETIME NOT NULL, 
	CONSTRAINT pk_chat_messages PRIMARY KEY (id), 
	CONSTRAINT fk_chat_messages_game_id_games FOREIGN KEY(game_id) REFERENCES games (id), 
	CONSTRAINT fk_chat_messages_user_id_users FOREIGN KEY(user_id) REFERENCES users (id)
);
CREATE TABLE disputes (
	id INTEGER NOT NULL, 
	game_id VARCHAR(16) NOT NULL, 
	user_id INTEGER NOT NULL, 
	username VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	text VARCHAR(2000) NOT NULL, 
	status VARCHAR(12) NOT NULL, 
	created_at DATETIME NOT NULL, 
	resolved_at DATETIME, 
	resolved_by INTEGER, 
	decision VARCHAR(16), 
	decision_seq INTEGER, 
	resolution VARCHAR(2000), 
	CONSTRAINT pk_disputes PRIMARY KEY (id), 
	CONSTRAINT fk_disputes_game_id_games FOREIGN KEY(game_id) REFERENCES games (id), 
	CONSTRAINT fk_disputes_user_id_users FOREIGN KEY(user_id) REFERENCES users (id), 
	CONSTRAINT fk_disputes_resolved_by_users FOREIGN KEY(resolved_by) REFERENCES users (id)
);
CREATE TABLE game_clocks (
	game_id VARCHAR(16) NOT NULL, 
	days INTEGER, 
	side VARCHAR(16), 
	user_id INTEGER, 
	since DATETIME, 
	extra_seconds INTEGER NOT NULL, 
	reminded_at DATETIME, 
	expired_at DATETIME, 
	CONSTRAINT pk_game_clocks PRIMARY KEY (game_id), 
	CONSTRAINT fk_game_clocks_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE game_commands (
	game_id VARCHAR(16) NOT NULL, 
	first_seq INTEGER NOT NULL, 
	last_seq INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	action_id VARCHAR(64), 
	body JSON, 
	side VARCHAR(16), 
	user_id INTEGER, 
	created_at DATETIME NOT NULL, 
	CONSTRAINT pk_game_commands PRIMARY KEY (game_id, first_seq), 
	CONSTRAINT fk_game_commands_game_id_games FOREIGN KEY(game_id) REFERENCES games (id), 
	CONSTRAINT fk_game_commands_user_id_users FOREIGN KEY(user_id) REFERENCES users (id), 
	CONSTRAINT uq_game_commands_game_id_action_id UNIQUE (game_id, action_id)
);
INSERT INTO "game_commands" VALUES('p2ur2au4n2',1,2,'create',NULL,'{"scenario": "1862", "options": ["7.5"], "mode": "live", "private": false}','union',1,'2026-12-01 03:52:37.801232');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',3,4,'join',NULL,NULL,'confederate',2,'2026-12-01 03:52:37.820120');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',5,5,'action',NULL,'{"type": "sea_move", "unit": "U-MI-10", "to": "fort_monroe"}','union',1,'2026-12-01 03:52:37.880628');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',6,6,'action',NULL,'{"type": "sea_move", "unit": "U-MI-11", "to": "pensacola"}','union',1,'2026-12-01 03:52:37.927497');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',7,8,'action',NULL,'{"type": "promote", "unit": "U-VI-08"}','union',1,'2026-12-01 03:52:37.979178');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',9,10,'action',NULL,'{"type": "roll_recruits"}','union',1,'2026-12-01 03:52:38.015155');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',11,12,'action',NULL,'{"type": "recruit", "unit_type": "MI", "box": "fort_wayne"}','union',1,'2026-12-01 03:52:38.049987');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',13,14,'action',NULL,'{"type": "recruit", "unit_type": "MI", "box": "cleveland"}','union',1,'2026-12-01 03:52:38.082905');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',15,17,'action',NULL,'{"type": "recruit", "unit_type": "MI", "box": "louisville"}','union',1,'2026-12-01 03:52:38.116807');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',18,18,'action',NULL,'{"type": "activate", "box": "charleston_sc"}','confederate',2,'2026-12-01 03:52:38.171114');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',19,19,'action',NULL,'{"type": "activate", "box": "yorktown"}','confederate',2,'2026-12-01 03:52:38.210817');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',20,20,'action',NULL,'{"type": "move", "unit": "C-VI-08", "path": ["richmond"], "by": ["road"]}','confederate',2,'2026-12-01 03:52:38.267315');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',21,22,'action',NULL,'{"type": "promote", "unit": "C-VI-03"}','confederate',2,'2026-12-01 03:52:38.302949');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',23,25,'action',NULL,'{"type": "roll_recruits"}','confederate',2,'2026-12-01 03:52:38.337693');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',26,27,'action',NULL,'{"type": "roll_marches"}','union',1,'2026-12-01 03:52:38.394300');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',28,28,'action',NULL,'{"type": "sea_move", "unit": "U-MI-09", "to": "baltimore"}','union',1,'2026-12-01 03:52:38.433238');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',29,29,'action',NULL,'{"type": "sea_move", "unit": "U-MI-12", "to": "pensacola"}','union',1,'2026-12-01 03:52:38.471654');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',30,30,'action',NULL,'{"type": "sea_move", "unit": "U-VI-07", "to": "new_york"}','union',1,'2026-12-01 03:52:38.519299');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',31,32,'action',NULL,'{"type": "promote", "unit": "U-MI-13"}','union',1,'2026-12-01 03:52:38.560676');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',33,34,'action',NULL,'{"type": "roll_recruits"}','union',1,'2026-12-01 03:52:38.593647');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',35,36,'action',NULL,'{"type": "recruit", "unit_type": "MI", "box": "washington"}','union',1,'2026-12-01 03:52:38.628722');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',37,39,'action',NULL,'{"type": "recruit", "unit_type": "MI", "box": "cleveland"}','union',1,'2026-12-01 03:52:38.668591');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',40,41,'action',NULL,'{"type": "roll_marches"}','confederate',2,'2026-12-01 03:52:38.710970');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',42,42,'action',NULL,'{"type": "activate", "box": "fayetteville"}','confederate',2,'2026-12-01 03:52:38.748858');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',43,43,'action',NULL,'{"type": "activate", "box": "chattanooga"}','confederate',2,'2026-12-01 03:52:38.789198');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',44,44,'action',NULL,'{"type": "end_movement"}','confederate',2,'2026-12-01 03:52:38.820729');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',45,46,'action',NULL,'{"type": "promote", "unit": "C-MI-03"}','confederate',2,'2026-12-01 03:52:38.851214');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',47,48,'action',NULL,'{"type": "roll_recruits"}','confederate',2,'2026-12-01 03:52:38.879068');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',49,51,'action',NULL,'{"type": "recruit", "unit_type": "MI", "box": "lynchburg"}','confederate',2,'2026-12-01 03:52:38.914234');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',52,53,'action',NULL,'{"type": "roll_marches"}','union',1,'2026-12-01 03:52:38.947143');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',54,54,'action',NULL,'{"type": "sea_move", "unit": "U-MI-09", "to": "washington"}','union',1,'2026-12-01 03:52:38.978818');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',55,55,'action',NULL,'{"type": "sea_move", "unit": "U-VI-07", "to": "baltimore"}','union',1,'2026-12-01 03:52:39.017373');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',56,56,'action',NULL,'{"type": "invade", "unit": "U-MI-08", "to": "charleston_sc"}','union',1,'2026-12-01 03:52:39.062791');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',57,57,'action',NULL,'{"type": "sea_move", "unit": "U-CI-01", "to": "new_york"}','union',1,'2026-12-01 03:52:39.105098');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',58,58,'action',NULL,'{"type": "sea_move", "unit": "U-MC-01", "to": "philadelphia"}','union',1,'2026-12-01 03:52:39.142998');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',59,59,'action',NULL,'{"type": "activate", "box": "baltimore"}','union',1,'2026-12-01 03:52:39.181507');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',60,60,'action',NULL,'{"type": "entrench", "unit": "U-VI-07"}','union',1,'2026-12-01 03:52:39.214918');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',61,62,'action',NULL,'{"type": "fight", "box": "charleston_sc"}','union',1,'2026-12-01 03:52:39.251509');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',63,64,'action',NULL,'{"type": "target", "unit": "C-MI-06", "target": "U-MI-08"}','confederate',2,'2026-12-01 03:52:39.290923');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',65,66,'action',NULL,'{"type": "target", "unit": "U-MI-08", "target": "C-MI-06"}','union',1,'2026-12-01 03:52:39.335113');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',67,69,'action',NULL,'{"type": "retreat", "to": "columbia"}','confederate',2,'2026-12-01 03:52:39.374876');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',70,71,'action',NULL,'{"type": "no_promotion"}','union',1,'2026-12-01 03:52:39.417014');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',72,73,'action',NULL,'{"type": "promote", "unit": "U-MI-15"}','union',1,'2026-12-01 03:52:39.471188');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',74,75,'action',NULL,'{"type": "roll_recruits"}','union',1,'2026-12-01 03:52:39.512530');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',76,78,'action',NULL,'{"type": "recruit", "unit_type": "MI", "box": "chicago"}','union',1,'2026-12-01 03:52:39.549253');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',79,80,'action',NULL,'{"type": "roll_marches"}','confederate',2,'2026-12-01 03:52:39.590086');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',81,81,'action',NULL,'{"type": "activate", "box": "corinth"}','confederate',2,'2026-12-01 03:52:39.629035');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',82,82,'action',NULL,'{"type": "entrench", "unit": "C-CI-01"}','confederate',2,'2026-12-01 03:52:39.671190');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',83,83,'action',NULL,'{"type": "move", "unit": "C-VI-02", "path": ["pittsburg_landing"], "by": ["road"]}','confederate',2,'2026-12-01 03:52:39.710975');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',84,84,'action',NULL,'{"type": "move", "unit": "C-CI-01", "path": ["okolona"], "by": ["rail"]}','confederate',2,'2026-12-01 03:52:39.747113');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',85,85,'action',NULL,'{"type": "activate", "box": "chattanooga"}','confederate',2,'2026-12-01 03:52:39.785139');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',86,86,'action',NULL,'{"type": "move", "unit": "C-MI-04", "path": ["decatur", "corinth"], "by": ["rail", "rail"]}','confederate',2,'2026-12-01 03:52:39.826934');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',87,88,'action',NULL,'{"type": "fight", "box": "pittsburg_landing"}','confederate',2,'2026-12-01 03:52:39.865189');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',89,89,'action',NULL,'{"type": "target", "unit": "U-MI-02", "target": "C-VI-02"}','union',1,'2026-12-01 03:52:39.905727');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',90,90,'action',NULL,'{"type": "target", "unit": "U-VI-02", "target": "C-VI-02"}','union',1,'2026-12-01 03:52:39.940682');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',91,97,'action',NULL,'{"type": "target", "unit": "U-VI-03", "target": "C-VI-02"}','union',1,'2026-12-01 03:52:39.982786');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',98,99,'action',NULL,'{"type": "promote", "unit": "U-MI-02"}','union',1,'2026-12-01 03:52:40.023275');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',100,101,'action',NULL,'{"type": "promote", "unit": "C-VI-06"}','confederate',2,'2026-12-01 03:52:40.055755');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',102,104,'action',NULL,'{"type": "roll_recruits"}','confederate',2,'2026-12-01 03:52:40.084279');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',105,106,'action',NULL,'{"type": "roll_marches"}','union',1,'2026-12-01 03:52:40.135690');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',107,107,'action',NULL,'{"type": "sea_move", "unit": "U-MI-10", "to": "charleston_sc"}','union',1,'2026-12-01 03:52:40.173579');
INSERT INTO "game_commands" VALUES('p2ur2au4n2',108,108,'action',NULL,'{"type": "sea_move", "unit": "U-MI-12", "to": "philadelphia"}','union',1,'2026-12-01 03:52:40.202928');
CREATE TABLE game_events (
	game_id VARCHAR(16) NOT NULL, 
	seq INTEGER NOT NULL, 
	source VARCHAR(8) NOT NULL, 
	type VARCHAR(64) NOT NULL, 
	actor VARCHAR(32), 
	payload JSON NOT NULL, 
	created_at DATETIME NOT NULL, prev_hash VARCHAR(64), 
	CONSTRAINT pk_game_events PRIMARY KEY (game_id, seq), 
	CONSTRAINT fk_game_events_game_id_games FOREIGN KEY(game_id) REFERENCES games (id)
);
INSERT INTO "game_events" VALUES('p2ur2au4n2',1,'server','create','union','{"scenario": "1862", "options": ["7.5"], "mode": "live", "private": false, "header": {"engine": 1, "scenario": "1862", "options": ["7.5"], "seed_commitment": "2e261e1c3009c3d35c87e08f655e329fd03557872d48b68a65ad14b9c33fd770"}, "by": "oldunion"}','2026-12-01 03:52:37.801232','cce0cfc3ac000ed9ad8e231e5d1aa6b9b189d3a27ea6d4e54230d40635eb4aa1');
INSERT INTO "game_events" VALUES('p2ur2au4n2',2,'server','join','union','{"side": "union", "user_id": 1, "username": "oldunion"}','2026-12-01 03:52:37.801232','60462c686e1e9b54429aa823191fd3de8b2b301774d85b97cf649d725da323c8');
INSERT INTO "game_events" VALUES('p2ur2au4n2',3,'server','join','confederate','{"side": "confederate", "user_id": 2, "username": "oldconfed"}','2026-12-01 03:52:37.820120','947b3cbfb12f22012889f3f24db23fa714123f20a7a5a49b06f39d12aefc8596');
INSERT INTO "game_events" VALUES('p2ur2au4n2',4,'server','start',NULL,'{"to_act": "union"}','2026-12-01 03:52:37.820120','51920f4849020dee1fca9bbf785ae6809c9820a4e4839f10c869118bbcd25f64');
INSERT INTO "game_events" VALUES('p2ur2au4n2',5,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MI-10", "to": "fort_monroe"}}','2026-12-01 03:52:37.880628','bf4532d44056c866d8792f1ba7b430f8db363af1eaf2d9ed30633f8e939c7f12');
INSERT INTO "game_events" VALUES('p2ur2au4n2',6,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MI-11", "to": "pensacola"}}','2026-12-01 03:52:37.927497','f3536bec56f1f01c03506c7957a17ab6a959565fb92e76fdc5ee4d74a81b3a8e');
INSERT INTO "game_events" VALUES('p2ur2au4n2',7,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "promote", "unit": "U-VI-08"}}','2026-12-01 03:52:37.979178','b3fa06ab60756e31104161a667855742df851938aa46a5eec3158dd45194942a');
INSERT INTO "game_events" VALUES('p2ur2au4n2',8,'engine','promoted','union','{"type": "promoted", "unit": "U-VI-08", "to": "U-CI-01", "box": "washington"}','2026-12-01 03:52:37.979178','7d050d806195d96c3877f3e0da065788d291bb31725be98043f52e00696de27f');
INSERT INTO "game_events" VALUES('p2ur2au4n2',9,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "roll_recruits"}}','2026-12-01 03:52:38.015155','20029432ff52e70fd098c5de114590821b6d59cd62e02d66e19bf0775df5512b');
INSERT INTO "game_events" VALUES('p2ur2au4n2',10,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "recruits", "value": 3}','2026-12-01 03:52:38.015155','00612ee83c8eaa40aa4ecbc9e291e93810cd5bbb7326a5b33671e4f8d98115dc');
INSERT INTO "game_events" VALUES('p2ur2au4n2',11,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "recruit", "unit_type": "MI", "box": "fort_wayne"}}','2026-12-01 03:52:38.049987','82f393e501eb01467d9b3c1e56c9ccab8d45e48a627324835d6a165e90f2d547');
INSERT INTO "game_events" VALUES('p2ur2au4n2',12,'engine','recruited','union','{"type": "recruited", "unit": "U-MI-13", "box": "fort_wayne"}','2026-12-01 03:52:38.049987','3fa1b3b69ba283561d7bbfb25066e3d059863db0d3f35495bf938573a51a99ec');
INSERT INTO "game_events" VALUES('p2ur2au4n2',13,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "recruit", "unit_type": "MI", "box": "cleveland"}}','2026-12-01 03:52:38.082905','8bb065598bd9c224279d69a96827f332920d58aaca89871d663e331652939218');
INSERT INTO "game_events" VALUES('p2ur2au4n2',14,'engine','recruited','union','{"type": "recruited", "unit": "U-MI-14", "box": "cleveland"}','2026-12-01 03:52:38.082905','c426ee45c14f8c720e8973f8f917d668dbf1153354f158c4ff860a10b9f9f391');
INSERT INTO "game_events" VALUES('p2ur2au4n2',15,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "recruit", "unit_type": "MI", "box": "louisville"}}','2026-12-01 03:52:38.116807','e72bbdfd249da255b93a666add29da8aa24f42fbb2b47a1356ba448a223a0298');
INSERT INTO "game_events" VALUES('p2ur2au4n2',16,'engine','recruited','union','{"type": "recruited", "unit": "U-MI-15", "box": "louisville"}','2026-12-01 03:52:38.116807','554fcfa057535604dc819f19972620b167dbed7c562dda569d8cc69a882f1e46');
INSERT INTO "game_events" VALUES('p2ur2au4n2',17,'engine','player_turn','union','{"type": "player_turn", "turn": 8, "date": "04 1862", "side": "confederate"}','2026-12-01 03:52:38.116807','01981ab8e0ccb069b782daaec7b0f0e040fa676bd81d81c7bf1ce9076ba96ee1');
INSERT INTO "game_events" VALUES('p2ur2au4n2',18,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "activate", "box": "charleston_sc"}}','2026-12-01 03:52:38.171114','653a0fbba94b751a5997d633bddb83b80856a472dd1de3da55844942c24e68a8');
INSERT INTO "game_events" VALUES('p2ur2au4n2',19,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "activate", "box": "yorktown"}}','2026-12-01 03:52:38.210817','ce772bd292d6d318770e931fb0f755de09e5b61e3c66b83a863788f1171157f8');
INSERT INTO "game_events" VALUES('p2ur2au4n2',20,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "move", "unit": "C-VI-08", "path": ["richmond"], "by": ["road"]}}','2026-12-01 03:52:38.267315','efb16a2d0b8e0e9f6d74df9043bff47fd2989f38084e6d5f16aaf4bdab616510');
INSERT INTO "game_events" VALUES('p2ur2au4n2',21,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "promote", "unit": "C-VI-03"}}','2026-12-01 03:52:38.302949','20276a556cf9ecc16de7f030aaa3c121dac7a64ce8c55493fc7bc51e4649b7f7');
INSERT INTO "game_events" VALUES('p2ur2au4n2',22,'engine','promoted','confederate','{"type": "promoted", "unit": "C-VI-03", "to": "C-CI-01", "box": "corinth"}','2026-12-01 03:52:38.302949','371683518c7d4b67c18dd31e1668a0aa55c1cb8b95d685f380bdd2f1937b9ad4');
INSERT INTO "game_events" VALUES('p2ur2au4n2',23,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "roll_recruits"}}','2026-12-01 03:52:38.337693','3aa93eb6d04493885e1d59868810cdfea81f12ca8b66aa359d65a3a6df78efb4');
INSERT INTO "game_events" VALUES('p2ur2au4n2',24,'engine','roll','confederate','{"type": "roll", "side": "confederate", "purpose": "recruits", "value": 2}','2026-12-01 03:52:38.337693','63b1a331f3dc343bb4ad98333a9363353fd120c8f2aab6b45b7e6f07ebd04cf5');
INSERT INTO "game_events" VALUES('p2ur2au4n2',25,'engine','player_turn','confederate','{"type": "player_turn", "turn": 9, "date": "05 1862", "side": "union"}','2026-12-01 03:52:38.337693','7b7c395f321c9b33f3c8cacf24fe7b3bf2b1b276f2b00526d38b262a29e10de0');
INSERT INTO "game_events" VALUES('p2ur2au4n2',26,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "roll_marches"}}','2026-12-01 03:52:38.394300','509fbab42aa01e33d1eca05500bc15d75cc6688fea8b86d614caeb534fb2887f');
INSERT INTO "game_events" VALUES('p2ur2au4n2',27,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "marches", "value": 3}','2026-12-01 03:52:38.394300','935aab04e1db0cb5edce6f934e3201a2b88e5d54042c277fdeeb973127629174');
INSERT INTO "game_events" VALUES('p2ur2au4n2',28,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MI-09", "to": "baltimore"}}','2026-12-01 03:52:38.433238','33f6b2636acc9595d31d7dcb670f96d64106f80c1cb5676d1c0ebd93fea6c094');
INSERT INTO "game_events" VALUES('p2ur2au4n2',29,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MI-12", "to": "pensacola"}}','2026-12-01 03:52:38.471654','d1d0d1d1979328d1ad83376c8100433ce50b1a8aaeb8f8cd76e2f3d63540ab08');
INSERT INTO "game_events" VALUES('p2ur2au4n2',30,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-VI-07", "to": "new_york"}}','2026-12-01 03:52:38.519299','4b205886101fcb1474c61156e558fba6e56eda3d62efaa4da001d4dab0a42cec');
INSERT INTO "game_events" VALUES('p2ur2au4n2',31,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "promote", "unit": "U-MI-13"}}','2026-12-01 03:52:38.560676','ce22608bbb881930bed286ed0a2d1dcb798478411d4e9f18479fe8ef8e0003e6');
INSERT INTO "game_events" VALUES('p2ur2au4n2',32,'engine','promoted','union','{"type": "promoted", "unit": "U-MI-13", "to": "U-VI-08", "box": "fort_wayne"}','2026-12-01 03:52:38.560676','5b3fb218a9ebf7f9b6bca9e67115bdfb0954508713e6b58e0d58846a6b7ef5db');
INSERT INTO "game_events" VALUES('p2ur2au4n2',33,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "roll_recruits"}}','2026-12-01 03:52:38.593647','eb01d6955c72c53c8ba92ac927dbfcc02b2712bb838403eec803cb25dabbd57f');
INSERT INTO "game_events" VALUES('p2ur2au4n2',34,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "recruits", "value": 4}','2026-12-01 03:52:38.593647','90f241c5e6b2371664ee71fef189aaa13c767be96d66320d78c8b763cfc96bb9');
INSERT INTO "game_events" VALUES('p2ur2au4n2',35,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "recruit", "unit_type": "MI", "box": "washington"}}','2026-12-01 03:52:38.628722','f37d97655c3cea19da4c0f79640791007d35006d9e90981dd889b401e85079ef');
INSERT INTO "game_events" VALUES('p2ur2au4n2',36,'engine','recruited','union','{"type": "recruited", "unit": "U-MI-13", "box": "washington"}','2026-12-01 03:52:38.628722','77f5abd9a844a2cb693fda5e110aa372126f6908cce89d477a195ace4f655a82');
INSERT INTO "game_events" VALUES('p2ur2au4n2',37,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "recruit", "unit_type": "MI", "box": "cleveland"}}','2026-12-01 03:52:38.668591','3a3f82f9425f1e91077b93e9145151c923004c6696ac1ffa0e2572331253f0c2');
INSERT INTO "game_events" VALUES('p2ur2au4n2',38,'engine','recruited','union','{"type": "recruited", "unit": "U-MI-16", "box": "cleveland"}','2026-12-01 03:52:38.668591','bb54d2604d2f588f1c18edb57aaf93f0ea1d103d5545d88ec97a48f02ee8cae0');
INSERT INTO "game_events" VALUES('p2ur2au4n2',39,'engine','player_turn','union','{"type": "player_turn", "turn": 9, "date": "05 1862", "side": "confederate"}','2026-12-01 03:52:38.668591','72edd873981abe3590e36b97105818c17a6818a1c52cc7ea05b77a94711c89d4');
INSERT INTO "game_events" VALUES('p2ur2au4n2',40,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "roll_marches"}}','2026-12-01 03:52:38.710970','0976b414aa6b700311e5ecd08e459a84a0a6c1bc24e3d9a787463a04d4ff0451');
INSERT INTO "game_events" VALUES('p2ur2au4n2',41,'engine','roll','confederate','{"type": "roll", "side": "confederate", "purpose": "marches", "value": 5}','2026-12-01 03:52:38.710970','649bd35bd7ea192571ede0f4ae3f0f77480a3ceb54b135d775cd02de81b60bfb');
INSERT INTO "game_events" VALUES('p2ur2au4n2',42,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "activate", "box": "fayetteville"}}','2026-12-01 03:52:38.748858','c2be6aa85acd37ae9370072a4599823eeb0711d8a9353c8a78cd2ae878204c07');
INSERT INTO "game_events" VALUES('p2ur2au4n2',43,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "activate", "box": "chattanooga"}}','2026-12-01 03:52:38.789198','3fbda4c2050d66166c6291d331ee67dd8bca919bfa741d2d9235964beb9f230e');
INSERT INTO "game_events" VALUES('p2ur2au4n2',44,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "end_movement"}}','2026-12-01 03:52:38.820729','8df1a32bf4c84d99e8dec077965e863a512ac5aeedbc8f292dca88d48d54d158');
INSERT INTO "game_events" VALUES('p2ur2au4n2',45,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "promote", "unit": "C-MI-03"}}','2026-12-01 03:52:38.851214','122302a7fb94428a36a7954ffce173d41112cae40101c8ef38bb8c2739a13cb0');
INSERT INTO "game_events" VALUES('p2ur2au4n2',46,'engine','promoted','confederate','{"type": "promoted", "unit": "C-MI-03", "to": "C-VI-03", "box": "mobile"}','2026-12-01 03:52:38.851214','2a9e930f73c796d4ce754f22afd09e041971eaa7c4fde28d5318ee1e95b0d77b');
INSERT INTO "game_events" VALUES('p2ur2au4n2',47,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "roll_recruits"}}','2026-12-01 03:52:38.879068','e60f980b37c3f805ec8b8e354c646f4ef14901bf18927dc12660a6d685835b87');
INSERT INTO "game_events" VALUES('p2ur2au4n2',48,'engine','roll','confederate','{"type": "roll", "side": "confederate", "purpose": "recruits", "value": 3}','2026-12-01 03:52:38.879068','ff231f7fd30daf58c80978c40096b6d7c9ea006c95656b527ec274dd2bf40c1f');
INSERT INTO "game_events" VALUES('p2ur2au4n2',49,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "recruit", "unit_type": "MI", "box": "lynchburg"}}','2026-12-01 03:52:38.914234','4ee4869fa9977a16d4947a2df74bfc1941e6bb4a715cb204af43e6453d8e580e');
INSERT INTO "game_events" VALUES('p2ur2au4n2',50,'engine','recruited','confederate','{"type": "recruited", "unit": "C-MI-03", "box": "lynchburg"}','2026-12-01 03:52:38.914234','8c314e6dae0cebd426ab068e44daca5485d6d3f7d2947ea8046e9689b05c93c3');
INSERT INTO "game_events" VALUES('p2ur2au4n2',51,'engine','player_turn','confederate','{"type": "player_turn", "turn": 10, "date": "06 1862", "side": "union"}','2026-12-01 03:52:38.914234','050b01df0b3f4557548e68cd73040afe1cab0fae8d1fbf52f72d05f2b2e538c1');
INSERT INTO "game_events" VALUES('p2ur2au4n2',52,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "roll_marches"}}','2026-12-01 03:52:38.947143','cda08015d2f2f735ef80554d5f4e404b881d22acae6beec12dff428cde38ce3e');
INSERT INTO "game_events" VALUES('p2ur2au4n2',53,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "marches", "value": 6}','2026-12-01 03:52:38.947143','9525f3018ac82507c76d8aa5aa2be62c8e0a6fba0de069c062033f068916f5a8');
INSERT INTO "game_events" VALUES('p2ur2au4n2',54,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MI-09", "to": "washington"}}','2026-12-01 03:52:38.978818','6af1de4de6905d4958beb2c34ef27f4d588ed7f196e5720ef37f7d21255ad62f');
INSERT INTO "game_events" VALUES('p2ur2au4n2',55,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-VI-07", "to": "baltimore"}}','2026-12-01 03:52:39.017373','2247deeaea2e557d0d4d836514215d463669a0c88629e0a955c072cb58f2e52b');
INSERT INTO "game_events" VALUES('p2ur2au4n2',56,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "invade", "unit": "U-MI-08", "to": "charleston_sc"}}','2026-12-01 03:52:39.062791','95de1ae6aabfb53d08b414362daffd15f3f9f635cb46aa20896579effd71818d');
INSERT INTO "game_events" VALUES('p2ur2au4n2',57,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-CI-01", "to": "new_york"}}','2026-12-01 03:52:39.105098','fc55c70bdec3c474da192e92ac918b3cd78fa8ca36ba50674128d26bd458ef59');
INSERT INTO "game_events" VALUES('p2ur2au4n2',58,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MC-01", "to": "philadelphia"}}','2026-12-01 03:52:39.142998','b82158cf80a02ac9820c2e7397616efd6167cea6baf6227f40f99a8a73279955');
INSERT INTO "game_events" VALUES('p2ur2au4n2',59,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "activate", "box": "baltimore"}}','2026-12-01 03:52:39.181507','b45274ab0514627f3367e53523205e1b8e15414df3ad85d1588a61d5b888342b');
INSERT INTO "game_events" VALUES('p2ur2au4n2',60,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "entrench", "unit": "U-VI-07"}}','2026-12-01 03:52:39.214918','2f0492c6305ab476a5c68e3a41ef677a62efdac3b46eac65eac0cd27739ec90d');
INSERT INTO "game_events" VALUES('p2ur2au4n2',61,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "fight", "box": "charleston_sc"}}','2026-12-01 03:52:39.251509','2b393071f036cb1d0dfdf3d0bfff93239a91a47fbbe385267d27613163fa4550');
INSERT INTO "game_events" VALUES('p2ur2au4n2',62,'engine','battle','union','{"type": "battle", "box": "charleston_sc", "attacker": "union", "round": 1}','2026-12-01 03:52:39.251509','bbff269d4e638bf74bd3b1ceee617ddd2ceaeadec371831c6144708576d99421');
INSERT INTO "game_events" VALUES('p2ur2au4n2',63,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "target", "unit": "C-MI-06", "target": "U-MI-08"}}','2026-12-01 03:52:39.290923','550250abf2dd7d2a01ff74ebfe55fa89c4efa3781ee73aeaff69c25e9aa43802');
INSERT INTO "game_events" VALUES('p2ur2au4n2',64,'engine','roll','confederate','{"type": "roll", "side": "confederate", "purpose": "fire", "value": 5, "unit": "C-MI-06", "target": "U-MI-08", "need": 3}','2026-12-01 03:52:39.290923','044f60ee2712706ef7d5a141d8b223ea03ee225b324bdbc33b109fdd605b9ff5');
INSERT INTO "game_events" VALUES('p2ur2au4n2',65,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "target", "unit": "U-MI-08", "target": "C-MI-06"}}','2026-12-01 03:52:39.335113','dadb6edd14313292aed735e695357845bbc330b73f423a4d86526e34464592e0');
INSERT INTO "game_events" VALUES('p2ur2au4n2',66,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "fire", "value": 3, "unit": "U-MI-08", "target": "C-MI-06", "need": 2}','2026-12-01 03:52:39.335113','4b654a9235a034461e72250fe1513591e688ef1fba05db4a1c68d442dbca42bb');
INSERT INTO "game_events" VALUES('p2ur2au4n2',67,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "retreat", "to": "columbia"}}','2026-12-01 03:52:39.374876','5d58b3b4389fb9f6ab1c430e4edff9dcec429964aed91b41afd78d603bc45560');
INSERT INTO "game_events" VALUES('p2ur2au4n2',68,'engine','retreated','confederate','{"type": "retreated", "side": "confederate", "box": "charleston_sc", "to": "columbia"}','2026-12-01 03:52:39.374876','d4b251832cd85c244298f64c8cdbbcd73b92d920f1f8584ec9ecc60ba79f1aa3');
INSERT INTO "game_events" VALUES('p2ur2au4n2',69,'engine','battle_won','confederate','{"type": "battle_won", "box": "charleston_sc", "winner": "union", "round": 2}','2026-12-01 03:52:39.374876','3b26bb44d2c93250a995726aa915f4b64c25c32c91fc6fea98ab69f2ec7a0542');
INSERT INTO "game_events" VALUES('p2ur2au4n2',70,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "no_promotion"}}','2026-12-01 03:52:39.417014','dddcfe5d874aad8c15f0dae0f39004af643b3c15ce9d9d8515aff04324af547e');
INSERT INTO "game_events" VALUES('p2ur2au4n2',71,'engine','captured','union','{"type": "captured", "box": "charleston_sc", "side": "union"}','2026-12-01 03:52:39.417014','29e9273f6cc19af8bb2c7242553efd6720b9a025a7462b483f36baec02cc87db');
INSERT INTO "game_events" VALUES('p2ur2au4n2',72,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "promote", "unit": "U-MI-15"}}','2026-12-01 03:52:39.471188','1a6a1450d7443ec781696c143c1ace8d791ad529eea3a297530b2b7ef4790877');
INSERT INTO "game_events" VALUES('p2ur2au4n2',73,'engine','promoted','union','{"type": "promoted", "unit": "U-MI-15", "to": "U-VI-09", "box": "louisville"}','2026-12-01 03:52:39.471188','fe3037d3c5b5bf104c8e677cddca76a5ecaec5fc4410902d6aee7fcb512db33c');
INSERT INTO "game_events" VALUES('p2ur2au4n2',74,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "roll_recruits"}}','2026-12-01 03:52:39.512530','c1b2c29a932fddb66e46f3fd502005c84e573cddda5cf71edcda421d2191572c');
INSERT INTO "game_events" VALUES('p2ur2au4n2',75,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "recruits", "value": 1}','2026-12-01 03:52:39.512530','85556d6be9c8e9cee57681253da85bd0c19c05c0cf0a5459fa6cda3e48e38f1f');
INSERT INTO "game_events" VALUES('p2ur2au4n2',76,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "recruit", "unit_type": "MI", "box": "chicago"}}','2026-12-01 03:52:39.549253','5143acb58ccf5cb1e06d92eebc019ca27b5dc91955b20689ed712d5485783306');
INSERT INTO "game_events" VALUES('p2ur2au4n2',77,'engine','recruited','union','{"type": "recruited", "unit": "U-MI-15", "box": "chicago"}','2026-12-01 03:52:39.549253','d88249aadf6adf3e36e0af53f6c6a529655181a3980946456afcac407095f6a8');
INSERT INTO "game_events" VALUES('p2ur2au4n2',78,'engine','player_turn','union','{"type": "player_turn", "turn": 10, "date": "06 1862", "side": "confederate"}','2026-12-01 03:52:39.549253','9e8c32602003dc5902c9155c42433ba7f33abfbc19a520ac13dc2045c671e575');
INSERT INTO "game_events" VALUES('p2ur2au4n2',79,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "roll_marches"}}','2026-12-01 03:52:39.590086','25f4b7f1fed90516d01eb4cfd1de67de256c994adb05abccac01002b3d0baf58');
INSERT INTO "game_events" VALUES('p2ur2au4n2',80,'engine','roll','confederate','{"type": "roll", "side": "confederate", "purpose": "marches", "value": 1}','2026-12-01 03:52:39.590086','d2857710e50f7dda8197c163ec303e7d9888c7ed3a11764c316034a0712b62b3');
INSERT INTO "game_events" VALUES('p2ur2au4n2',81,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "activate", "box": "corinth"}}','2026-12-01 03:52:39.629035','1b65834bce58c58ac072d8427687d2bd57ce72853c2b1e679ca84f2dde1a5016');
INSERT INTO "game_events" VALUES('p2ur2au4n2',82,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "entrench", "unit": "C-CI-01"}}','2026-12-01 03:52:39.671190','a8727c05f7f65b251a128a131f4d824d70b0a0fc7d5c67e38f16eccb87b88abf');
INSERT INTO "game_events" VALUES('p2ur2au4n2',83,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "move", "unit": "C-VI-02", "path": ["pittsburg_landing"], "by": ["road"]}}','2026-12-01 03:52:39.710975','4ee302b228c9a981e51e518b7827e314c950ac65f47e28d4f27e722c82ecdbc8');
INSERT INTO "game_events" VALUES('p2ur2au4n2',84,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "move", "unit": "C-CI-01", "path": ["okolona"], "by": ["rail"]}}','2026-12-01 03:52:39.747113','791b23d9ce1bcda698eeac70aa57c86db3b27ce962f24e0f54972eda6a24d45c');
INSERT INTO "game_events" VALUES('p2ur2au4n2',85,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "activate", "box": "chattanooga"}}','2026-12-01 03:52:39.785139','dc18aafb4e6e9bf61702dcc50d117338ccd66a15b311837774fe1de7d22da0b2');
INSERT INTO "game_events" VALUES('p2ur2au4n2',86,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "move", "unit": "C-MI-04", "path": ["decatur", "corinth"], "by": ["rail", "rail"]}}','2026-12-01 03:52:39.826934','4cc564f7892e4c777fa324837dd476c508f9edc4eb96197ead5ce8ee42a8fd65');
INSERT INTO "game_events" VALUES('p2ur2au4n2',87,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "fight", "box": "pittsburg_landing"}}','2026-12-01 03:52:39.865189','440ef77cca16e2cfdfdae3f45cd9a1de630026e56161270c41c926925446b124');
INSERT INTO "game_events" VALUES('p2ur2au4n2',88,'engine','battle','confederate','{"type": "battle", "box": "pittsburg_landing", "attacker": "confederate", "round": 1}','2026-12-01 03:52:39.865189','7e027f622ac9c049acbec8ee6aa678163d6346a957895ae5493005f710e177da');
INSERT INTO "game_events" VALUES('p2ur2au4n2',89,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "target", "unit": "U-MI-02", "target": "C-VI-02"}}','2026-12-01 03:52:39.905727','51383c35570a93dbd50f79ca6a692fdc1cbf2632c47795da4636028c69b170e7');
INSERT INTO "game_events" VALUES('p2ur2au4n2',90,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "target", "unit": "U-VI-02", "target": "C-VI-02"}}','2026-12-01 03:52:39.940682','0ce0788548769202c85c25bafc119be4776f3ae6360432d4dc996303d94e9806');
INSERT INTO "game_events" VALUES('p2ur2au4n2',91,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "target", "unit": "U-VI-03", "target": "C-VI-02"}}','2026-12-01 03:52:39.982786','a1faa4447f4ada2584ad070d58ad1bda8fa0a94aa82c2445262a80b963114dac');
INSERT INTO "game_events" VALUES('p2ur2au4n2',92,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "fire", "value": 1, "unit": "U-MI-02", "target": "C-VI-02", "need": 2}','2026-12-01 03:52:39.982786','9b663b996f4570ac3636b5cc29d6bdf3299b7a8ef5ee70a17f3f66f65e9851d2');
INSERT INTO "game_events" VALUES('p2ur2au4n2',93,'engine','reduced','union','{"type": "reduced", "unit": "C-VI-02"}','2026-12-01 03:52:39.982786','732e628a6faa13e4b0d077a54bc6a66f3d5697dff2c8ca500c6b799cec3ad004');
INSERT INTO "game_events" VALUES('p2ur2au4n2',94,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "fire", "value": 3, "unit": "U-VI-02", "target": "C-VI-02", "need": 3}','2026-12-01 03:52:39.982786','8ac8ece429dcef6e2f3b1ca28009fe5db90624a9d82c8eea0c27351a65d946a7');
INSERT INTO "game_events" VALUES('p2ur2au4n2',95,'engine','eliminated','union','{"type": "eliminated", "unit": "C-VI-02"}','2026-12-01 03:52:39.982786','57c973ea55703baa696a05f92083a26022226568982e74c5a20ca53b800ba12b');
INSERT INTO "game_events" VALUES('p2ur2au4n2',96,'engine','shot_wasted','union','{"type": "shot_wasted", "unit": "U-VI-03", "target": "C-VI-02"}','2026-12-01 03:52:39.982786','e6e2f32730115cbecf590c5bbb2965183a1930e1f6d86c7a9ee33014e93a6b94');
INSERT INTO "game_events" VALUES('p2ur2au4n2',97,'engine','battle_won','union','{"type": "battle_won", "box": "pittsburg_landing", "winner": "union", "round": 1}','2026-12-01 03:52:39.982786','4ada3c31159b0f12052f179301f2b7796b0801ae63eed3718f46e0ac311ab04e');
INSERT INTO "game_events" VALUES('p2ur2au4n2',98,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "promote", "unit": "U-MI-02"}}','2026-12-01 03:52:40.023275','abc78821c7623705964ea6e895142ca910dd6de7e0eba90094a5556072237d9c');
INSERT INTO "game_events" VALUES('p2ur2au4n2',99,'engine','promoted','union','{"type": "promoted", "unit": "U-MI-02", "to": "U-VI-10", "box": "pittsburg_landing"}','2026-12-01 03:52:40.023275','c9d91035a35aa3c0c3e5c73428b777c63026f15df1ff96776a7f48408978b506');
INSERT INTO "game_events" VALUES('p2ur2au4n2',100,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "promote", "unit": "C-VI-06"}}','2026-12-01 03:52:40.055755','b4191755494a19ede987fae75e5ee5f594e1f43102648d8d5f22ca76b494f684');
INSERT INTO "game_events" VALUES('p2ur2au4n2',101,'engine','promoted','confederate','{"type": "promoted", "unit": "C-VI-06", "to": "C-CI-02", "box": "manassas_junction"}','2026-12-01 03:52:40.055755','5b1c2f17ebc5136cbe0c982716c56bad4108695129b56eb7bab65dd575b663ef');
INSERT INTO "game_events" VALUES('p2ur2au4n2',102,'engine','action','confederate','{"type": "action", "side": "confederate", "action": {"type": "roll_recruits"}}','2026-12-01 03:52:40.084279','6c4392db482091fae7326b1c9e9cd206b8aaa47b10e3a03cd0d43b06d8982ff9');
INSERT INTO "game_events" VALUES('p2ur2au4n2',103,'engine','roll','confederate','{"type": "roll", "side": "confederate", "purpose": "recruits", "value": 1}','2026-12-01 03:52:40.084279','19c19f3e4f240eb7d4b08b51a506b246bebac977149f7ee353ca8f482c3cc3c0');
INSERT INTO "game_events" VALUES('p2ur2au4n2',104,'engine','player_turn','confederate','{"type": "player_turn", "turn": 11, "date": "07 1862", "side": "union"}','2026-12-01 03:52:40.084279','a45d8b4f2a60fcfa379d4b69ebb8ac75d07c9e2128f640624751350d05cca5b8');
INSERT INTO "game_events" VALUES('p2ur2au4n2',105,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "roll_marches"}}','2026-12-01 03:52:40.135690','9469cc7dd77f8b0e2de6a9c1758b66d2c40c8baf27258dd7267574e8ce3d3f90');
INSERT INTO "game_events" VALUES('p2ur2au4n2',106,'engine','roll','union','{"type": "roll", "side": "union", "purpose": "marches", "value": 6}','2026-12-01 03:52:40.135690','822d5bc87eed93168438b20b1e98efee1751e78e965e22e942f0eb97a609e21e');
INSERT INTO "game_events" VALUES('p2ur2au4n2',107,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MI-10", "to": "charleston_sc"}}','2026-12-01 03:52:40.173579','bb4a0ae95c05e329580acf0c0dacac659bae17dbfd7de653c918e1784ad4b824');
INSERT INTO "game_events" VALUES('p2ur2au4n2',108,'engine','action','union','{"type": "action", "side": "union", "action": {"type": "sea_move", "unit": "U-MI-12", "to": "philadelphia"}}','2026-12-01 03:52:40.202928','c7866e3f7db1dcb9fa8ab8f0ad1617ee7337fdaf740f53e717d3aa4f9e4c9daf');
CREATE TABLE games (
	id VARCHAR(16) NOT NULL, 
	scenario VARCHAR(32) NOT NULL, 
	options JSON NOT NULL, 
	mode VARCHAR(8) NOT NULL, 
	private BOOLEAN NOT NULL, 
	invite_code VARCHAR(32), 
	status VARCHAR(12) NOT NULL, 
	creator_id INTEGER NOT NULL, 
	union_user_id INTEGER, 
	confederate_user_id INTEGER, 
	seed VARCHAR(128) NOT NULL, 
	header JSON NOT NULL, 
	seq INTEGER NOT NULL, 
	to_act VARCHAR(16), 
	result JSON, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	started_at DATETIME, 
	finished_at DATETIME, chain_head VARCHAR(64), 
	CONSTRAINT pk_games PRIMARY KEY (id), 
	CONSTRAINT fk_games_confederate_user_id_users FOREIGN KEY(confederate_user_id) REFERENCES users (id), 
	CONSTRAINT fk_games_creator_id_users FOREIGN KEY(creator_id) REFERENCES users (id), 
	CONSTRAINT fk_games_union_user_id_users FOREIGN KEY(union_user_id) REFERENCES users (id)
);
INSERT INTO "games" VALUES('p2ur2au4n2','1862','["7.5"]','live',0,NULL,'active',1,1,2,'4b685ef964e5b85bea47bb15b07498ff4f662371d82f991ac8d515f7c659130e','{"engine": 1, "scenario": "1862", "options": ["7.5"], "seed_commitment": "2e261e1c3009c3d35c87e08f655e329fd03557872d48b68a65ad14b9c33fd770"}',108,'union',NULL,'2026-12-01 03:52:37.789236','2026-12-01 03:52:40.202928','2026-12-01 03:52:37.820107',NULL,'c1e56d24a15324fc3ff87b43a52d9dad8038dfb77987cdd5b9388ed220ed0ddd');
CREATE TABLE mail_prefs (
	user_id INTEGER NOT NULL, 
	mode VARCHAR(8) NOT NULL, 
	verified_email VARCHAR(254), 
	verified_at DATETIME, 
	last_digest_at DATETIME, 
	CONSTRAINT pk_mail_prefs PRIMARY KEY (user_id), 
	CONSTRAINT fk_mail_prefs_user_id_users FOREIGN KEY(user_id) REFERENCES users (id) ON DELETE CASCADE
);
CREATE TABLE notices (
	id INTEGER NOT NULL, 
	user_id INTEGER NOT NULL, 
	game_id VARCHAR(16), 
	kind VARCHAR(24) NOT NULL, 
	text TEXT NOT NULL, 
	seq INTEGER, 
	created_at DATETIME NOT NULL, 
	read_at DATETIME, 
	CONSTRAINT pk_notices PRIMARY KEY (id), 
	CONSTRAINT fk_notices_user_id_users FOREIGN KEY(user_id) REFERENCES users (id) ON DELETE CASCADE
);
INSERT INTO "notices" VALUES(1,1,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Union).

Since your last move:
- oldconfed takes the Confederate seat.
- The game begins: the Union player moves first.',4,'2026-12-01 03:52:37.830830',NULL);
INSERT INTO "notices" VALUES(2,2,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Confederate).

Since your last move:
- Union: Union Militia Infantry moves by sea to Fort Monroe.
- Union: Union Militia Infantry moves by sea to Pensacola.
- Union Veteran Infantry at Washington is promoted.
- Union rolls 3: 3 recruitment points.
- Union Militia Infantry recruited at Fort Wayne.
- Union Militia Infantry recruited at Cleveland.
- Union Militia Infantry recruited at Louisville.
- Turn 8 (04 1862): Confederate player turn.',17,'2026-12-01 03:52:38.123362',NULL);
INSERT INTO "notices" VALUES(3,1,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Union).

Since your last move:
- Confederate activates Charleston.
- Confederate activates Yorktown.
- Confederate: Confederate Veteran Infantry moves to Richmond.
- Confederate Veteran Infantry at Corinth is promoted.
- Confederate rolls 2: 2 recruitment points.
- Turn 9 (05 1862): Union player turn.',25,'2026-12-01 03:52:38.339440',NULL);
INSERT INTO "notices" VALUES(4,2,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Confederate).

Since your last move:
- Union rolls 3: 3 marches.
- Union: Union Militia Infantry moves by sea to Baltimore.
- Union: Union Militia Infantry moves by sea to Pensacola.
- Union: Union Veteran Infantry moves by sea to New York.
- Union Militia Infantry at Fort Wayne is promoted.
- Union rolls 4: 4 recruitment points.
- Union Militia Infantry recruited at Washington.
- Union Militia Infantry recruited at Cleveland.
- Turn 9 (05 1862): Confederate player turn.',39,'2026-12-01 03:52:38.670060',NULL);
INSERT INTO "notices" VALUES(5,1,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Union).

Since your last move:
- Confederate rolls 5: 5 marches.
- Confederate activates Fayetteville.
- Confederate activates Chattanooga.
- Confederate Militia Infantry at Mobile is promoted.
- Confederate rolls 3: 3 recruitment points.
- Confederate Militia Infantry recruited at Lynchburg.
- Turn 10 (06 1862): Union player turn.',51,'2026-12-01 03:52:38.919809',NULL);
INSERT INTO "notices" VALUES(6,2,'p2ur2au4n2','battle','Game p2ur2au4n2: a battle decision waits for you (Confederate).

Since your last move:
- Union rolls 6: 6 marches.
- Union: Union Militia Infantry moves by sea to Washington.
- Union: Union Veteran Infantry moves by sea to Baltimore.
- Union: Union Militia Infantry makes a naval invasion of Charleston.
- Union: Union Crack Infantry moves by sea to New York.
- Union: Union Militia Cavalry moves by sea to Philadelphia.
- Union activates Baltimore.
- Battle at Charleston: the Union attacks.',62,'2026-12-01 03:52:39.253037',NULL);
INSERT INTO "notices" VALUES(7,1,'p2ur2au4n2','battle','Game p2ur2au4n2: a battle decision waits for you (Union).

Since your last move:
- Confederate Militia Infantry fires at Union Militia Infantry: 5 (miss, needs 3 or less).',64,'2026-12-01 03:52:39.292231',NULL);
INSERT INTO "notices" VALUES(8,2,'p2ur2au4n2','choice','Game p2ur2au4n2: retreat, reinforce or fire on? (Confederate)

Since your last move:
- Union Militia Infantry fires at Confederate Militia Infantry: 3 (miss, needs 2 or less).',66,'2026-12-01 03:52:39.336860',NULL);
INSERT INTO "notices" VALUES(9,1,'p2ur2au4n2','battle','Game p2ur2au4n2: a battle decision waits for you (Union).

Since your last move:
- The Confederate retreats from Charleston to Columbia.
- The Union wins the battle of Charleston.',69,'2026-12-01 03:52:39.376212',NULL);
INSERT INTO "notices" VALUES(10,2,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Confederate).

Since your last move:
- The Union captures Charleston.
- Union Militia Infantry at Louisville is promoted.
- Union rolls 1: 2 recruitment points.
- Union Militia Infantry recruited at Chicago.
- Turn 10 (06 1862): Confederate player turn.',78,'2026-12-01 03:52:39.554838',NULL);
INSERT INTO "notices" VALUES(11,1,'p2ur2au4n2','battle','Game p2ur2au4n2: a battle decision waits for you (Union).

Since your last move:
- Confederate rolls 1: 2 marches.
- Confederate activates Corinth.
- Confederate: Confederate Veteran Infantry moves to Pittsburg Landing.
- Confederate: Confederate Crack Infantry moves to Okolona.
- Confederate activates Chattanooga.
- Confederate: Confederate Militia Infantry moves to Decatur -> Corinth.
- Battle at Pittsburg Landing: the Confederate attacks.',88,'2026-12-01 03:52:39.866638',NULL);
INSERT INTO "notices" VALUES(12,2,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Confederate).

Since your last move:
- Union Militia Infantry fires at Confederate Veteran Infantry: 1 (hit, needs 2 or less).
- Confederate Veteran Infantry is reduced.
- Union Veteran Infantry fires at Confederate Veteran Infantry: 3 (hit, needs 3 or less).
- Confederate Veteran Infantry is eliminated.
- The Union wins the battle of Pittsburg Landing.
- Union Militia Infantry at Pittsburg Landing is promoted.',99,'2026-12-01 03:52:40.024815',NULL);
INSERT INTO "notices" VALUES(13,1,'p2ur2au4n2','turn','Game p2ur2au4n2: your turn (Union).

Since your last move:
- Confederate Veteran Infantry at Manassas Jct. is promoted.
- Confederate rolls 1: 2 recruitment points.
- Turn 11 (07 1862): Union player turn.',104,'2026-12-01 03:52:40.086828',NULL);
CREATE TABLE outbox (
	id INTEGER NOT NULL, 
	channel VARCHAR(8) NOT NULL, 
	user_id INTEGER, 
	game_id VARCHAR(16), 
	game_seq INTEGER, 
	kind VARCHAR(24) NOT NULL, 
	recipient VARCHAR(1000) NOT NULL, 
	subject VARCHAR(300) NOT NULL, 
	body TEXT NOT NULL, 
	payload JSON, 
	status VARCHAR(10) NOT NULL, 
	attempts INTEGER NOT NULL, 
	next_attempt_at DATETIME NOT NULL, 
	claimed_at DATETIME, 
	last_error VARCHAR(1000), 
	created_at DATETIME NOT NULL, 
	sent_at DATETIME, 
	dedupe VARCHAR(120), 
	CONSTRAINT pk_outbox PRIMARY KEY (id), 
	CONSTRAINT fk_outbox_user_id_users FOREIGN KEY(user_id) REFERENCES users (id) ON DELETE CASCADE, 
	CONSTRAINT uq_outbox_dedupe UNIQUE (dedupe)
);
CREATE TABLE site_notices (
	id INTEGER NOT NULL, 
	user_id INTEGER NOT NULL, 
	game_id VARCHAR(16), 
	kind VARCHAR(32) NOT NULL, 
	text VARCHAR(1000) NOT NULL, 
	created_at DATETIME NOT NULL, 
	read_at DATETIME, 
	CONSTRAINT pk_site_notices PRIMARY KEY (id), 
	CONSTRAINT fk_site_notices_game_id_games FOREIGN KEY(game_id) REFERENCES games (id), 
	CONSTRAINT fk_site_notices_user_id_users FOREIGN KEY(user_id) REFERENCES users (id)
);
CREATE TABLE standing_orders (
	game_id VARCHAR(16) NOT NULL, 
	user_id INTEGER NOT NULL, 
	orders JSON NOT NULL, 
	updated_at DATETIME NOT NULL, 
	CONSTRAINT pk_standing_orders PRIMARY KEY (game_id, user_id), 
	CONSTRAINT fk_standing_orders_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_standing_orders_user_id_users FOREIGN KEY(user_id) REFERENCES users (id) ON DELETE CASCADE
);
CREATE TABLE users (
	id INTEGER NOT NULL, 
	username VARCHAR(32) NOT NULL, 
	username_key VARCHAR(32) NOT NULL, 
	email VARCHAR(254), 
	password_hash VARCHAR(255) NOT NULL, 
	is_admin BOOLEAN DEFAULT 0 NOT NULL, 
	created_at DATETIME NOT NULL, 
	CONSTRAINT pk_users PRIMARY KEY (id), 
	CONSTRAINT uq_users_username_key UNIQUE (username_key)
);
INSERT INTO "users" VALUES(1,'oldunion','oldunion',NULL,'$argon2id$v=19$m=65536,t=3,p=4$rxQu5sGU+nNauqdMfdeAsg$YIZx3VH76qpV32f6yVCkgOIdu6pYWecWQuEVygbzR6Q',0,'2026-12-01 03:52:36.100397');
INSERT INTO "users" VALUES(2,'oldconfed','oldconfed',NULL,'$argon2id$v=19$m=65536,t=3,p=4$1C7am5S/BlIbuyGtdke9GA$FnupvQE5w73//qQs7kNXvnl8a/4/5dZMOVZ9UjG4gF0',0,'2026-12-01 03:52:37.086653');
CREATE TABLE vacations (
	id INTEGER NOT NULL, 
	user_id INTEGER NOT NULL, 
	starts_at DATETIME NOT NULL, 
	ends_at DATETIME NOT NULL, 
	CONSTRAINT pk_vacations PRIMARY KEY (id), 
	CONSTRAINT fk_vacations_user_id_users FOREIGN KEY(user_id) REFERENCES users (id) ON DELETE CASCADE
);
CREATE TABLE webhooks (
	user_id INTEGER NOT NULL, 
	url VARCHAR(1000) NOT NULL, 
	json_key VARCHAR(64) NOT NULL, 
	prefix VARCHAR(200) NOT NULL, 
	enabled BOOLEAN NOT NULL, 
	last_error VARCHAR(1000), 
	last_error_at DATETIME, 
	last_ok_at DATETIME, 
	CONSTRAINT pk_webhooks PRIMARY KEY (user_id), 
	CONSTRAINT fk_webhooks_user_id_users FOREIGN KEY(user_id) REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX ix_auth_tokens_user_id ON auth_tokens (user_id);
CREATE INDEX ix_games_confederate_user_id ON games (confederate_user_id);
CREATE INDEX ix_games_status ON games (status);
CREATE INDEX ix_games_union_user_id ON games (union_user_id);
CREATE INDEX ix_chat_messages_game_id ON chat_messages (game_id);
CREATE INDEX ix_disputes_game_id ON disputes (game_id);
CREATE INDEX ix_disputes_status ON disputes (status);
CREATE INDEX ix_admin_actions_game_id ON admin_actions (game_id);
CREATE INDEX ix_site_notices_user_id ON site_notices (user_id);
CREATE INDEX ix_notices_user_id ON notices (user_id);
CREATE INDEX ix_outbox_user_id ON outbox (user_id);
CREATE INDEX ix_outbox_status ON outbox (status);
CREATE INDEX ix_outbox_next_attempt_at ON outbox (next_attempt_at);
CREATE INDEX ix_vacations_user_id ON vacations (user_id);
COMMIT;
