import type { LegalTexts } from './types';

/** Právní texty v češtině. Načítají je jen informační stránky, nikdy první obrazovka. */
const cs: LegalTexts = {
  terms: {
    title: 'Podmínky užívání',
    lead: 'Tyto podmínky jsou smlouvou mezi vámi a provozovatelem {{site}}. Přečtěte si je prosím: založením účtu nebo používáním platformy je přijímáte.',
    sections: [
      {
        heading: '1. Kdo jsme',
        paragraphs: [
          'Platformu na adrese {{site}} provozuje {{operator}} („my“). Zastihnete nás na adrese {{email}} nebo přes kontaktní stránku.',
          'Platforma umožňuje tvůrcům zveřejňovat fotografie, videa a zprávy, prodávat k nim přístup, nabízet předplatné a placené videohovory, a fanouškům je sledovat, psát si s nimi a podporovat je.',
        ],
      },
      {
        heading: '2. Pouze pro dospělé',
        paragraphs: [
          'Platforma obsahuje obsah určený dospělým. Smíte ji používat, jen pokud je vám alespoň 18 let, jste zletilí podle práva místa, kde žijete, a prohlížení takového obsahu je tam legální.',
          'Souhlasem s těmito podmínkami potvrzujete, že tyto podmínky splňujete. Účty osob mladších 18 let rušíme, jakmile se o nich dozvíme.',
        ],
      },
      {
        heading: '3. Váš účet',
        paragraphs: [
          'K většině akcí potřebujete účet. Uvádějte pravdivé údaje, heslo držte v tajnosti a účet s nikým nesdílejte. Za to, co se na vašem účtu děje, odpovídáte vy.',
          'Mnoho akcí (sledování, lajky, komentáře, chat, nahrávání a nákupy) vyžaduje potvrzenou e-mailovou adresu. Účet můžete kdykoli zrušit v Nastavení.',
        ],
      },
      {
        heading: '4. Kredity a platby',
        paragraphs: [
          'Placený obsah, zprávy, dárky, spropitné a hovory se platí kredity. Kredity kupujete kartou přes našeho platebního zpracovatele; celé číslo vaší karty nikdy nevidíme ani neukládáme.',
          'Cena každého nákupu se zobrazí, než ho potvrdíte. Ceny nastavené tvůrci zahrnují poplatek platformy. Kredity nemají peněžní hodnotu, nelze je převést na jiný účet a nevracejí se, ledaže to vyžaduje zákon nebo nákup selhal na naší straně.',
          'Digitální obsah je dodán ihned po odemčení. Jste-li spotřebitelem v Evropské unii, souhlasíte se zahájením dodání ihned a berete na vědomí, že tím ztrácíte právo od tohoto nákupu odstoupit.',
        ],
      },
      {
        heading: '5. Předplatné',
        paragraphs: [
          'Předplatné dává přístup k obsahu tvůrce pro předplatitele na období uvedené v nabídce a automaticky se obnovuje, dokud ho nezrušíte. Zrušit ho můžete kdykoli v Nastavení; přístup trvá do konce zaplaceného období.',
          'Když platba za obnovení selže, předplatné krátce čeká na platbu a pak vyprší. Změna ceny se nikdy nevztahuje na již zaplacené období.',
        ],
      },
      {
        heading: '6. Tvůrci',
        paragraphs: [
          'Tvůrci si ponechávají veškerá práva ke svému obsahu. Zveřejněním nám tvůrce uděluje celosvětovou, nevýhradní a bezúplatnou licenci obsah hostovat, ukládat, upravovat (například zmenšit nebo rozmazat) a zobrazovat na platformě a v jejích widgetech po dobu, kdy je zveřejněn.',
          'Prodávat obsah smí tvůrce až po ověření totožnosti a věku. Každá osoba, která se v obsahu objeví, musí být dospělá a musí souhlasit s pořízením záznamu i se zveřejněním, a tvůrce o tom musí mít doklad (viz prohlášení 2257).',
          'Výdělky se po odečtení poplatku platformy připisují na zůstatek tvůrce a lze je vyplatit na ověřený účet pro výplaty, jakmile dosáhnou minimální výplaty. Daně si tvůrci odvádějí sami.',
        ],
      },
      {
        heading: '7. Co není dovoleno',
        paragraphs: ['Nesmíte zveřejňovat, posílat ani žádat:'],
        items: [
          'jakýkoli obsah s osobou mladší 18 let nebo obsah, který to naznačuje;',
          'obsah s osobou, která nesouhlasila, včetně skrytých nahrávek a „pomstychtivého“ obsahu;',
          'násilí, nedobrovolné jednání, sodomii, incest nebo obsah schvalující drogy, zbraně či sebepoškozování;',
          'nenávistné projevy, obtěžování, výhrůžky nebo zveřejňování soukromých údajů jiných lidí;',
          'obsah porušující autorská práva, ochranné známky nebo jiná práva třetích osob;',
          'spam, podvody, nabídky placených schůzek nebo pokusy přesunout platby mimo platformu;',
          'cokoli dalšího, co je nezákonné tam, kde jste vy nebo příjemce.',
        ],
      },
      {
        heading: '8. Nahlášení a moderování',
        paragraphs: [
          'Profil, příspěvek, komentář nebo zprávu, která porušuje tyto podmínky nebo zákon, může kdokoli nahlásit formulářem pro nahlášení nebo na adrese {{email}}. Hlášení posuzujeme bez zbytečného odkladu, proti nezákonnému obsahu zasahujeme a dotčené osobě sdělíme, jak a proč jsme rozhodli.',
          'Obsah, který porušuje tyto podmínky, můžeme skrýt nebo odstranit, omezit funkce nebo pozastavit či zrušit účet. Pokud si myslíte, že jsme rozhodli špatně, napište nám: rozhodnutí znovu posoudí člověk, který se na prvním rozhodnutí nepodílel.',
        ],
      },
      {
        heading: '9. Chat a videohovory',
        paragraphs: [
          'Tvůrci mohou účtovat zprávy v chatu, média v chatu a minuty hovoru. Cena se zobrazí před odesláním nebo zavoláním. Hovory se účtují za každou započatou minutu; hovor skončí, když vám dojdou kredity.',
          'Videohovory nenahráváme. Zprávy ukládáme, aby si oba účastníci mohli konverzaci přečíst; při nahlášení je můžeme posoudit.',
        ],
      },
      {
        heading: '10. Ukončení smlouvy',
        paragraphs: [
          'Platformu můžete kdykoli přestat používat a účet zrušit. Smlouvu můžeme ukončit s výpovědí, při závažném nebo opakovaném porušení i okamžitě. Nevyužité kredity zrušeného účtu vracíme jen tam, kde to vyžaduje zákon; výdělky tvůrce nad minimální výplatou vyplatíme po vyřízení otevřených hlášení a zpětných plateb.',
        ],
      },
      {
        heading: '11. Odpovědnost',
        paragraphs: [
          'Za svůj obsah odpovídají tvůrci, ne my. Platformu poskytujeme tak, jak je, a děláme vše pro to, aby byla dostupná, nemůžeme však slíbit, že bude vždy fungovat bez přerušení.',
          'Nic v těchto podmínkách neomezuje odpovědnost, kterou zákon omezit nedovoluje, zejména za úmysl, hrubou nedbalost nebo újmu na životě a zdraví, ani vaše práva spotřebitele.',
        ],
      },
      {
        heading: '12. Změny podmínek',
        paragraphs: [
          'Podmínky můžeme z dobrého důvodu změnit, například kvůli novým funkcím nebo zákonům. O důležitých změnách vás předem informujeme a požádáme o nový souhlas; pokud nesouhlasíte, můžete účet zrušit dříve, než změny začnou platit.',
        ],
      },
      {
        heading: '13. Rozhodné právo a spory',
        paragraphs: [
          'Tyto podmínky se řídí právem České republiky. Jste-li spotřebitel, zůstává vám i ochrana kogentních předpisů vaší země.',
          'Se stížností se prosím nejprve obraťte na nás. Spotřebitelé se mohou obrátit také na Českou obchodní inspekci (www.coi.cz) k mimosoudnímu řešení sporu, nebo na soud.',
        ],
      },
    ],
  },
  termsForAg: {
    title: 'Podmínky propagačních akcí',
    lead: 'Tyto podmínky platí, když ověřený tvůrce přijme propagační akci, kterou nabízí {{operatorName}}. Doplňují Podmínky užívání, které nadále platí v plném rozsahu.',
    sections: [
      {
        heading: '1. Co je propagační akce',
        paragraphs: [
          'Čas od času zveme ověřené tvůrce k účasti v propagační akci: zobrazení na úvodní stránce, v sekci Objevovat, v našich newsletterech a sociálních sítích, nebo kampaň se zvláštní nabídkou pro fanoušky. Každá nabídka uvádí, co se propaguje, jak dlouho a co tvůrce získá.',
        ],
      },
      {
        heading: '2. Přijetí nebo odmítnutí',
        paragraphs: [
          'Nabídku dostanete jako oznámení a odpovíte na ni v aplikaci. Účast je dobrovolná: odmítnutí nemá vliv na váš účet, viditelnost ani výdělky.',
          'Z přijaté akce můžete odstoupit e-mailem na {{email}}; propagace pak skončí, jakmile to bude prakticky možné.',
        ],
      },
      {
        heading: '3. Váš obsah v akci',
        paragraphs: [
          'Přijetím nám dovolujete používat vaše zobrazované jméno, profilový obrázek a obsah, který pro akci vyberete, v propagaci popsané v nabídce po dobu akce. Zamčený obsah nikdy neukážeme odemčený bez vašeho výslovného souhlasu.',
          'Použít lze jen obsah, v němž je každá zobrazená osoba ověřená dospělá osoba, která s propagací souhlasila. Potvrzujete, že máte potřebná práva a souhlasy.',
        ],
      },
      {
        heading: '4. Odměna',
        paragraphs: [
          'Odměna uvedená v nabídce se připíše na zůstatek vašich výdělků podle obvyklých pravidel pro výplaty. Prodeje během akce se dělí obvyklým způsobem, pokud nabídka neuvádí jinak.',
        ],
      },
      {
        heading: '5. Ukončení akce',
        paragraphs: [
          'Akci můžeme ukončit předčasně, pokud porušuje zákon, tyto podmínky nebo Podmínky užívání, nebo pokud je obsah v ní nahlášen a shledán porušujícím. Již získaná odměna vám zůstává, pokud nebyla získána porušením.',
        ],
      },
    ],
  },
  terms2257: {
    title: 'Prohlášení podle 18 U.S.C. 2257',
    lead: 'Prohlášení o plnění povinností vedení záznamů pro obsah na {{site}}.',
    sections: [
      {
        heading: 'Všechny osoby byly dospělé',
        paragraphs: [
          'Všechny osoby, které se objevují v jakémkoli vizuálním zobrazení skutečného nebo simulovaného sexuálně explicitního chování na této platformě, byly v době pořízení zobrazení starší 18 let.',
        ],
      },
      {
        heading: 'Kdo obsah vytváří',
        paragraphs: [
          '{{operatorName}} obsah na platformě nevytváří. Obsah vytvářejí a zveřejňují nezávislí tvůrci, kteří jsou jeho primárními producenty ve smyslu 18 U.S.C. 2257 a 28 C.F.R. 75. Činnost provozovatele ve vztahu k tomuto obsahu se omezuje na hostování a šíření podle 18 U.S.C. 2257(h)(2)(B)(v) a 47 U.S.C. 230(c).',
        ],
      },
      {
        heading: 'Jak to ověřujeme',
        paragraphs: [
          'Než tvůrce smí prodávat obsah, ověříme jeho totožnost a věk podle úředního dokladu s fotografií u poskytovatele ověření totožnosti. Tvůrci musí vést záznamy, které zákon vyžaduje, o každé osobě ve svém obsahu včetně dalších účinkujících, a na požádání nám je předložit. Obsah, k němuž záznamy nelze doložit, odstraníme.',
        ],
      },
      {
        heading: 'Správce záznamů',
        paragraphs: ['Záznamy o ověření totožnosti provedených platformou uchovává správce záznamů: {{operator}}. Žádosti: {{email}}.'],
      },
      {
        heading: 'Nahlášení',
        paragraphs: [
          'Pokud se domníváte, že obsah zobrazuje osobu mladší 18 let nebo osobu, která nesouhlasila, ihned ho nahlaste formulářem pro nahlášení nebo napište na {{email}}. Takový obsah bez odkladu odstraníme a oznámíme příslušným orgánům.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Zásady ochrany osobních údajů',
    lead: 'Jak {{operatorName}} zachází s vašimi osobními údaji, když používáte {{site}}, a jaká máte práva podle GDPR.',
    sections: [
      {
        heading: '1. Správce',
        paragraphs: ['Správcem vašich osobních údajů je {{operator}}. Ve všech věcech týkajících se vašich údajů pište na {{email}}.'],
      },
      {
        heading: '2. Jaké údaje zpracováváme',
        paragraphs: [],
        items: [
          'Účet: e-mailová adresa, uživatelské jméno, heslo (uložené jen jako bezpečný otisk), jazyk a nastavení.',
          'Profil: zobrazované jméno, popis, profilový obrázek a vše další, co se rozhodnete zveřejnit.',
          'Obsah a zprávy: příspěvky, komentáře, zprávy v chatu, nahraná média, reakce a lajky.',
          'Nákupy a výdělky: kredity, transakce, předplatné, výplaty a údaje pro výplaty, které nám tvůrci dají. S čísly karet pracuje jen náš platební zpracovatel; my uchováváme odkaz na uloženou kartu, její typ a poslední čtyři číslice.',
          'Ověření totožnosti (tvůrci): výsledek ověření dokladu u našeho poskytovatele, jméno a datum narození; u partnerů také adresa, firma a bankovní údaje.',
          'Technické údaje: IP adresa, informace o zařízení a prohlížeči, záznamy o přihlášeních a bezpečnostních událostech a cookies popsané v zásadách cookies.',
          'Zprávy, které nám pošlete kontaktním formulářem, s vaším jménem a e-mailovou adresou.',
        ],
      },
      {
        heading: '3. Proč je zpracováváme a na jakém právním základě',
        paragraphs: [],
        items: [
          'Abychom vám poskytli platformu a služby, o které žádáte: účet, obsah, chat, hovory, nákupy a výplaty (plnění smlouvy, čl. 6 odst. 1 písm. b) GDPR).',
          'K vedení účetnictví a daňových záznamů, ověření věku a totožnosti tvůrců a vyřízení oprávněných žádostí úřadů (právní povinnost, čl. 6 odst. 1 písm. c)).',
          'K zajištění bezpečnosti platformy: předcházení podvodům a zneužití, moderování nahlášeného obsahu, ochrana účtů (oprávněný zájem, čl. 6 odst. 1 písm. f)).',
          'Statistické a marketingové cookies a newslettery jen s vaším souhlasem, který můžete kdykoli odvolat (čl. 6 odst. 1 písm. a)).',
        ],
      },
      {
        heading: '4. Citlivé údaje',
        paragraphs: [
          'Používání platformy pro dospělé může něco prozradit o vašem sexuálním životě nebo orientaci. Takové informace používáme jen k poskytnutí služby, o kterou jste požádali, neukazujeme je nikomu kromě lidí, se kterými jste v kontaktu, a nikdy je nepoužíváme k reklamě.',
        ],
      },
      {
        heading: '5. Kdo vaše údaje dostává',
        paragraphs: [
          'Ostatní uživatelé vidí, co zveřejníte, a váš veřejný profil. Tvůrci, kterým píšete, vidí vaše zprávy. Údaje sdílíme se zpracovateli, kteří pro nás pracují na základě smlouvy: hosting a úložiště, doručování e-mailů, platební zpracovatel a poskytovatel ověření totožnosti. Úřadům předáváme údaje jen tam, kde to vyžaduje zákon.',
          'Je-li zpracovatel mimo Evropský hospodářský prostor, předáváme údaje jen s vhodnými zárukami, například standardními smluvními doložkami Evropské komise.',
        ],
      },
      {
        heading: '6. Jak dlouho údaje uchováváme',
        paragraphs: [
          'Údaje uchováváme po dobu existence vašeho účtu. Po jeho zrušení odstraníme profil a obsah; ponecháme jen to, co vyžaduje zákon (například účetní záznamy 10 let), a bezpečnostní záznamy nejvýše 12 měsíců. Zprávy z kontaktního formuláře uchováváme nejvýše 3 roky.',
        ],
      },
      {
        heading: '7. Vaše práva',
        paragraphs: ['Máte právo:'],
        items: [
          'na přístup ke svým údajům a jejich kopii;',
          'na opravu nepřesných údajů;',
          'na výmaz údajů nebo omezení jejich zpracování;',
          'na přenositelnost: získat své údaje ve strojově čitelném formátu;',
          'vznést námitku proti zpracování na základě oprávněného zájmu;',
          'kdykoli odvolat souhlas, aniž by tím bylo dotčeno zpracování před odvoláním;',
          'podat stížnost u dozorového úřadu, v České republice u Úřadu pro ochranu osobních údajů (www.uoou.cz).',
        ],
      },
      {
        heading: '8. Zabezpečení',
        paragraphs: [
          'Spojení jsou šifrovaná, hesla ukládáme jako otisky, přístup k údajům v našem týmu mají jen ti, kdo ho potřebují, a každá platba je zapsána v účetní knize, kterou lze auditovat.',
        ],
      },
      {
        heading: '9. Pouze pro dospělé',
        paragraphs: ['Platforma není určena osobám mladším 18 let. Zjistíme-li, že máme údaje nezletilé osoby, účet i údaje smažeme.'],
      },
      {
        heading: '10. Změny',
        paragraphs: ['Tyto zásady aktualizujeme, když se naše zpracování změní, a o důležitých změnách vás informujeme předem.'],
      },
    ],
  },
  cookiePolicy: {
    title: 'Zásady používání cookies',
    lead: 'Jaké cookies a podobná úložiště {{site}} používá, proč, a jak si vyberete, které povolíte.',
    sections: [
      {
        heading: '1. Co jsou cookies',
        paragraphs: [
          'Cookies jsou malé textové soubory, které web ukládá ve vašem prohlížeči. Pro několik nastavení používáme také místní úložiště prohlížeče. Dělíme je do čtyř kategorií, ze kterých vybíráte v nastavení cookies.',
        ],
      },
      {
        heading: '2. Nezbytné',
        paragraphs: ['Vždy zapnuté: bez nich platforma nefunguje.'],
        items: [
          'fs_refresh: udržuje vás přihlášené (HttpOnly, posílá se jen na adresu přihlášení; nejvýše 30 dní).',
          'fs_session: říká stránce, že existuje přihlášení, aniž by ho prozradila (po dobu přihlášení).',
          'accept: záznam, že je vám 18 let nebo více a souhlasili jste s podmínkami, s verzí podmínek (365 dní).',
          'preference: kategorie cookies, které jste povolili (2 roky).',
        ],
      },
      {
        heading: '3. Předvolby',
        paragraphs: ['Pamatují si vaše volby, abyste je nemuseli dělat znovu.'],
        items: [
          'cookielang: jazyk webu (2 roky).',
          'genderfilter: filtr časové osy a sekce Objevovat (30 dní).',
          'pushdis: že jste odmítli oznámení, abychom se neptali příliš brzy znovu (14 dní).',
          'smstip a robin: že se zobrazil tip, aby se neopakoval (7 a 31 dní).',
        ],
      },
      {
        heading: '4. Statistické',
        paragraphs: [
          'Jen s vaším souhlasem počítáme návštěvy a používání obrazovek, bez cookies třetích stran a bez vaší identifikace, abychom platformu zlepšovali.',
        ],
      },
      {
        heading: '5. Marketingové',
        paragraphs: [
          'Jen s vaším souhlasem: affcode si pamatuje, který tvůrce vás pozval, aby dostal svůj podíl (31 dní). Cookies reklamních sítí nepoužíváme.',
        ],
      },
      {
        heading: '6. Vaše volba',
        paragraphs: [
          'Kategorie vybíráte při první návštěvě a svou volbu můžete kdykoli změnit v nastavení cookies, na které odkazuje patička. Cookies můžete smazat i v prohlížeči; pak budete odhlášeni a zeptáme se znovu.',
          'Dotazy: {{email}}.',
        ],
      },
    ],
  },
};

export default cs;
