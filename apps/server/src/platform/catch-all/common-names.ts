/**
 * Common given names and surnames (the most frequent in the US census and birth records, with frequent European,
 * Latin American, Indian, Chinese, Japanese, Korean and Arabic ones), folded to ASCII as platform/names folds them.
 * The catch-all score reads a local part against them: "jsmith" is an initial and a common surname, "qxzkvbrt" is no
 * name at all. A name missing here only loses the bonus of a known name; it is never called gibberish for it.
 */

/** 410 given names. */
export const COMMON_FIRST_NAMES: ReadonlySet<string> = new Set([
  'aaron', 'abigail', 'adam', 'adrian', 'agnieszka', 'ahmed', 'aidan', 'aisha', 'alan', 'albert', 'alejandro', 'alex',
  'alexander', 'alexandra', 'alexis', 'alfred', 'ali', 'alice', 'alicia', 'alison', 'amanda', 'amber', 'amelia',
  'amir', 'amit', 'amy', 'ana', 'anan', 'ananya', 'andre', 'andrea', 'andreas', 'andrew', 'angela', 'angelo', 'anil',
  'anita', 'anke', 'ann', 'anna', 'anne', 'anthony', 'antonio', 'anya', 'arjun', 'arthur', 'ashley', 'astrid',
  'austin', 'ava', 'barbara', 'beatriz', 'ben', 'benjamin', 'bernard', 'beth', 'betty', 'beverly', 'bianca', 'billy',
  'bob', 'bobby', 'bonnie', 'brandon', 'brenda', 'brian', 'brittany', 'bruce', 'bryan', 'caitlin', 'camille', 'carl',
  'carla', 'carlos', 'carmen', 'carol', 'caroline', 'carolyn', 'carter', 'catherine', 'cecilia', 'charles', 'charlie',
  'charlotte', 'chen', 'cheryl', 'chiara', 'chloe', 'chris', 'christian', 'christina', 'christine', 'christopher',
  'claire', 'clara', 'claude', 'colin', 'connor', 'craig', 'cristina', 'cynthia', 'daisuke', 'dale', 'dan', 'dana',
  'daniel', 'daniela', 'danielle', 'darren', 'david', 'dean', 'deborah', 'debra', 'denise', 'dennis', 'derek',
  'diana', 'diane', 'diego', 'dmitri', 'dominic', 'donald', 'donna', 'doris', 'dorothy', 'douglas', 'dylan', 'earl',
  'eduardo', 'edward', 'elaine', 'elena', 'eli', 'elijah', 'elizabeth', 'ella', 'ellen', 'emily', 'emma', 'eric',
  'erik', 'erin', 'ethan', 'eugene', 'eva', 'evelyn', 'fatima', 'felix', 'fernando', 'florian', 'frances',
  'francesca', 'francesco', 'frank', 'fred', 'gabriel', 'gabriela', 'gary', 'gavin', 'george', 'gerald', 'gina',
  'giorgio', 'giulia', 'giuseppe', 'gloria', 'grace', 'greg', 'gregory', 'greta', 'gustavo', 'hannah', 'hans',
  'harold', 'harry', 'heather', 'heidi', 'helen', 'henry', 'hiroshi', 'holly', 'howard', 'hugo', 'ian', 'ines',
  'ingrid', 'irene', 'isaac', 'isabel', 'isabella', 'ivan', 'jack', 'jacob', 'jacqueline', 'jake', 'james', 'jamie',
  'jan', 'jane', 'janet', 'janice', 'jason', 'javier', 'jean', 'jeff', 'jeffrey', 'jennifer', 'jeremy', 'jerry',
  'jesse', 'jessica', 'jill', 'jim', 'joan', 'joanna', 'joe', 'joel', 'johan', 'john', 'jon', 'jonathan', 'jordan',
  'jorge', 'jose', 'joseph', 'joshua', 'joyce', 'juan', 'judith', 'judy', 'julia', 'julian', 'julie', 'justin', 'kai',
  'karen', 'karl', 'kate', 'katherine', 'kathleen', 'kathryn', 'katie', 'kayla', 'keith', 'kelly', 'ken', 'kenji',
  'kenneth', 'kevin', 'kim', 'kimberly', 'kyle', 'larry', 'lars', 'laura', 'lauren', 'lawrence', 'leah', 'leila', 'leo',
  'leon', 'leonardo', 'liam', 'lily', 'linda', 'lisa', 'logan', 'lori', 'louis', 'luca', 'lucas', 'lucia', 'luis',
  'lukas', 'luke', 'madison', 'magnus', 'manuel', 'marc', 'marco', 'margaret', 'maria', 'marie', 'marilyn', 'mario',
  'mark', 'martha', 'martin', 'mary', 'mason', 'mateo', 'matteo', 'matthew', 'max', 'megan', 'mei', 'melissa', 'mia',
  'michael', 'michelle', 'miguel', 'mike', 'min', 'mohammed', 'monica', 'nancy', 'naomi', 'natalia', 'natalie',
  'nathan', 'neil', 'nicholas', 'nicole', 'nikolai', 'noah', 'nora', 'olga', 'oliver', 'olivia', 'omar', 'oscar',
  'owen', 'pablo', 'pamela', 'patricia', 'patrick', 'paul', 'paula', 'pedro', 'peter', 'philip', 'pierre', 'piotr',
  'priya', 'rachel', 'rafael', 'rahul', 'raj', 'ralph', 'randy', 'raymond', 'rebecca', 'richard', 'rita', 'robert',
  'roberto', 'roger', 'ronald', 'rosa', 'roy', 'ruby', 'russell', 'ruth', 'ryan', 'sabrina', 'sally', 'samantha',
  'samuel', 'sandra', 'sara', 'sarah', 'scott', 'sean', 'sebastian', 'seo', 'sergei', 'sharon', 'shirley', 'simon',
  'sofia', 'sophia', 'sophie', 'stefan', 'stephanie', 'stephen', 'steve', 'steven', 'susan', 'sven', 'tanya',
  'teresa', 'terry', 'theresa', 'thomas', 'tim', 'timothy', 'tina', 'todd', 'tom', 'tony', 'tracy', 'tyler',
  'valentina', 'vanessa', 'victor', 'victoria', 'vincent', 'virginia', 'walter', 'wayne', 'wei', 'wendy', 'william',
  'willie', 'xavier', 'yan', 'yuki', 'yusuf', 'zachary', 'zoe'
]);

/** 294 surnames. */
export const COMMON_LAST_NAMES: ReadonlySet<string> = new Set([
  'abbott', 'adams', 'aguilar', 'ahmed', 'alexander', 'ali', 'allen', 'alvarez', 'anderson', 'andrews', 'armstrong',
  'arnold', 'bailey', 'baker', 'bakker', 'banks', 'barker', 'barnes', 'bauer', 'becker', 'bell', 'bennett', 'berger',
  'bianchi', 'black', 'bose', 'boyd', 'bradley', 'brooks', 'brown', 'bryant', 'burke', 'burns', 'butler', 'campbell',
  'carlson', 'carroll', 'carter', 'castillo', 'castro', 'chan', 'chang', 'chapman', 'chavez', 'chen', 'choi', 'clark',
  'cole', 'coleman', 'collins', 'cook', 'cooper', 'costa', 'cox', 'crawford', 'cruz', 'cunningham', 'daniels',
  'davies', 'davis', 'dean', 'devries', 'diaz', 'dixon', 'dubois', 'duncan', 'dunn', 'edwards', 'ellis', 'esposito',
  'evans', 'ferguson', 'fernandez', 'ferrari', 'fischer', 'fisher', 'fleming', 'flores', 'ford', 'foster', 'fox',
  'francis', 'freeman', 'garcia', 'gardner', 'garza', 'gibson', 'gomez', 'gonzales', 'gonzalez', 'gordon', 'graham',
  'grant', 'gray', 'green', 'griffin', 'gupta', 'gutierrez', 'guzman', 'hall', 'hamilton', 'hansen', 'harper',
  'harris', 'harrison', 'hart', 'hassan', 'hayes', 'henderson', 'henry', 'hernandez', 'herrera', 'hicks', 'hill',
  'hoffmann', 'holmes', 'hopkins', 'howard', 'huang', 'hughes', 'hunt', 'hunter', 'ivanov', 'jackson', 'james',
  'jansen', 'jenkins', 'jensen', 'jimenez', 'johnson', 'johnston', 'jones', 'jordan', 'kaur', 'kelly', 'kennedy',
  'khan', 'kim', 'king', 'klein', 'koch', 'kowalski', 'kumar', 'lambert', 'lane', 'larsen', 'laurent', 'lawrence',
  'lee', 'lefebvre', 'lewis', 'li', 'lin', 'liu', 'long', 'lopez', 'lucas', 'marshall', 'martin', 'martinez', 'mason',
  'matthews', 'mcdonald', 'medina', 'mendez', 'mendoza', 'meyer', 'miller', 'mills', 'mitchell', 'moore', 'morales',
  'moreau', 'moreno', 'morgan', 'morris', 'muller', 'munoz', 'murphy', 'murray', 'myers', 'nelson', 'nguyen',
  'nichols', 'nielsen', 'novak', 'nowak', 'obrien', 'olson', 'ortiz', 'owens', 'palmer', 'park', 'parker', 'patel',
  'patterson', 'payne', 'perez', 'perry', 'peters', 'petersen', 'peterson', 'petrov', 'phillips', 'porter', 'powell',
  'price', 'ramirez', 'ramos', 'reed', 'reid', 'reyes', 'reynolds', 'rice', 'richards', 'richardson', 'rivera',
  'roberts', 'robertson', 'robinson', 'rodriguez', 'rogers', 'romano', 'romero', 'rose', 'ross', 'rossi', 'ruiz',
  'russell', 'russo', 'ryan', 'salazar', 'sanchez', 'sanders', 'santos', 'sato', 'schmidt', 'schneider', 'schulz',
  'scott', 'shah', 'sharma', 'shaw', 'silva', 'simmons', 'simpson', 'singh', 'smith', 'snyder', 'spencer', 'stephens',
  'stevens', 'stewart', 'stone', 'sullivan', 'suzuki', 'tanaka', 'taylor', 'thomas', 'thompson', 'torres', 'tran',
  'tucker', 'turner', 'vargas', 'vasquez', 'visser', 'wagner', 'walker', 'wallace', 'walsh', 'wang', 'ward', 'warren',
  'washington', 'watson', 'webb', 'weber', 'wells', 'west', 'white', 'williams', 'wilson', 'wisniewski', 'wolf',
  'wong', 'wood', 'woods', 'wright', 'wu', 'yang', 'young', 'zhang', 'zimmermann'
]);
