"""held-n's sellers, customers, banks, payment terms and the sentences its invoices print around the wanted values
(legal notes, exemption grounds, the reasons of a credit note, a delivery note's reference, a Portuguese program's
certification line, a Polish invoice's exchange-rate line), by country and language.

Every seller, customer and street is invented; towns, postcodes, bank codes and the forms of tax and registration
numbers are those of their countries. A sentence may hold ``{name}`` fields that
:mod:`evaluation.invoice_held_n_facts` fills in.
"""

from __future__ import annotations

__all__ = ["BANKS", "BUSINESSES", "COURTS", "DOMAINS", "NO_CUSTOMER", "PLACES", "POSTCODE_FIRST", "SELLERS", "SOFTWARE",
           "TERMS", "TEXTS", "UNITS", "VAT_PREFIX"]

# Sellers by country: name, address lines, the town its register or tax office is in, and (Spain) the register's
# sheet prefix, (Italy) the province, (Portugal, Poland) nothing more.
SELLERS = {
    "ES": (("Distribuciones Turia, S.L.", ("C/ Colón, 24, 3º B", "46004 Valencia"), "Valencia", "V", "B",
            "963 52 14 87"),
           ("Regalos y Decoración Almagro, S.A.", ("Polígono Ind. Las Arenas, Nave 7", "28906 Getafe (Madrid)"),
            "Madrid", "M", "A", "916 95 38 20"),
           ("Comercial Bahía de Cádiz, S.L.", ("Avda. de Andalucía, 112", "11008 Cádiz"), "Cádiz", "CA", "B",
            "956 27 61 04")),
    "IT": (("Bottega Emiliana S.r.l.", ("Via Emilia Levante, 212", "40139 Bologna (BO)"), "Bologna", "BO", "",
            "051 634 2218"),
           ("Casa & Regalo S.p.A.", ("Corso Buenos Aires, 45", "20124 Milano (MI)"), "Milano", "MI", "",
            "02 2951 7730"),
           ("Ceramiche Toscane di Bianchi Marco", ("Via dei Serragli, 8/R", "50124 Firenze (FI)"), "Firenze", "FI",
            "BNCMRC71C14D612W", "055 229 4481")),
    "PT": (("Casa Lusa - Artigos de Decoração, Lda.", ("Rua de Santa Catarina, 312", "4000-447 Porto"), "Porto", "",
            "", "222 051 733"),
           ("Bazar Atlântico, S.A.", ("Avenida da Liberdade, 190, 3.º Esq.", "1250-147 Lisboa"), "Lisboa", "", "",
            "213 470 912"),
           ("Presentes do Minho, Unipessoal Lda.", ("Rua do Souto, 57", "4700-329 Braga"), "Braga", "", "",
            "253 612 480")),
    "PL": (("Hurtownia Upominków GWIAZDKA Sp. z o.o.", ("ul. Długa 15/3", "31-147 Kraków"), "Kraków", "", "",
            "12 423 18 90"),
           ("PPHU „Dekor-Pol” Jan Nowak", ("ul. Piotrkowska 120", "90-006 Łódź"), "Łódź", "", "", "42 636 27 15"),
           ("Amber Gifts Sp. z o.o. Sp.k.", ("ul. Grunwaldzka 82", "80-244 Gdańsk"), "Gdańsk", "", "",
            "58 341 02 77")),
}
DOMAINS = {"Distribuciones Turia, S.L.": "disturia.es", "Regalos y Decoración Almagro, S.A.": "regalosalmagro.es",
           "Comercial Bahía de Cádiz, S.L.": "bahiadecadiz.com", "Bottega Emiliana S.r.l.": "bottegaemiliana.it",
           "Casa & Regalo S.p.A.": "casaeregalo.it", "Ceramiche Toscane di Bianchi Marco": "ceramichetoscane.it",
           "Casa Lusa - Artigos de Decoração, Lda.": "casalusa.pt", "Bazar Atlântico, S.A.": "bazaratlantico.pt",
           "Presentes do Minho, Unipessoal Lda.": "presentesdominho.pt",
           "Hurtownia Upominków GWIAZDKA Sp. z o.o.": "gwiazdka-hurt.pl", "PPHU „Dekor-Pol” Jan Nowak": "dekorpol.pl",
           "Amber Gifts Sp. z o.o. Sp.k.": "ambergifts.pl"}
# Banks by country: (name, bank code) as the country's account number begins.
BANKS = {
    "ES": (("Banco Santander", "0049"), ("BBVA", "0182"), ("CaixaBank", "2100"), ("Banco Sabadell", "0081")),
    "IT": (("Intesa Sanpaolo", "03069"), ("UniCredit", "02008"), ("BPER Banca", "05387")),
    "PT": (("Caixa Geral de Depósitos", "0035"), ("Millennium BCP", "0033"), ("Novo Banco", "0007")),
    "PL": (("mBank S.A.", "11402004"), ("PKO Bank Polski S.A.", "10201026"), ("ING Bank Śląski S.A.", "10501445")),
}
# The invoicing programs imitated, by country (invented names; Portugal's with its certificate number).
SOFTWARE = {"ES": ("FactuSol Pro", "GesCom 2010", "ContaNet Facturación"),
            "IT": ("Gestionale Easy 7", "FattuRapida", "OfficeGest"),
            "PT": (("GesFact", "1342"), ("Faturix", "2087"), ("PrimeGest", "0719")),
            "PL": ("Fakturant 5.2", "SprzedażPro", "e-Faktury24")}
UNITS = {"es": ("Ud.", "UN"), "it": ("PZ", "NR", "pz"), "pt": ("UN", "Un."), "pl": ("szt.",),
         "en": ("pcs", "PCS", "EA")}

# Customers: businesses named from the customer number, in the record's country (as the record writes it).
BUSINESSES = ("Harrowgate Home Ltd", "Kestrel Gift Company", "Bluebell & Thistle", "Corner House Interiors",
              "The Village Pantry", "Rosewood Trading Ltd", "Moorland Crafts", "Seaside Stores Ltd",
              "Little Wren Gifts", "Copper Kettle Homeware", "Foxglove Living", "Orchard Lane Gifts Ltd",
              "The Candle Loft", "Millstone Emporium")
PLACES = {
    "United Kingdom": (("27 Fore Street", "St Ives", "TR26 1HE"), ("5 Swan Lane", "Guildford", "GU1 4EQ"),
                       ("112 Bold Street", "Liverpool", "L1 4HY"), ("Unit 8, Kingsway Park", "Derby", "DE22 3FA"),
                       ("41 Stonegate", "York", "YO1 8AW")),
    "EIRE": (("17 Quay Street", "Galway", "H91 DX48"), ("Main Street", "Kinsale, Co. Cork", "P17 WY22")),
    "France": (("14 rue des Tanneurs", "Colmar", "68000"), ("3 place du Marché", "Annecy", "74000")),
    "Germany": (("Hauptstraße 88", "Bamberg", "96047"), ("Am Markt 3", "Lüneburg", "21335")),
    "Netherlands": (("Breestraat 54", "Leiden", "2311 CS"),),
    "Norway": (("Kongens gate 21", "Trondheim", "7011"),),
    "Australia": (("60 Rundle Street", "Kent Town SA", "5067"),),
}
POSTCODE_FIRST = {"France", "Germany", "Netherlands", "Norway"}
VAT_PREFIX = {"United Kingdom": "GB", "EIRE": "IE", "France": "FR", "Germany": "DE", "Netherlands": "NL",
              "Norway": "NO", "Australia": "ABN"}
# A sale without a customer (a cash sale): the name each country's programs print in the customer's place.
NO_CUSTOMER = {("ES", "es"): ("CLIENTES VARIOS", "Cliente contado"), ("ES", "en"): ("Cash customer",),
               ("IT", "it"): ("Cliente occasionale", "Privato"), ("IT", "en"): ("Occasional customer",),
               ("PT", "pt"): ("Consumidor final",), ("PT", "en"): ("Final consumer",),
               ("PL", "pl"): ("Klient detaliczny", "Sprzedaż detaliczna"), ("PL", "en"): ("Retail customer",)}

# Payment terms: (what is printed, when it falls due: days after the invoice, or ("eom", n): the end of the n-th
# month after the invoice's).
TERMS = {
    ("ES", "es"): (("Transferencia bancaria", 15), ("Transferencia 60 días f.f.", 60),
                   ("Recibo domiciliado a 45 días", 45), ("Pagaré 60 días", 60),
                   ("Transferencia 30 días fin de mes", ("eom", 1))),
    ("ES", "en"): (("Bank transfer", 15), ("Bank transfer, 60 days from invoice date", 60),
                   ("Direct debit, 45 days", 45)),
    ("IT", "it"): (("Bonifico bancario 30 gg d.f.f.m.", ("eom", 1)), ("Ri.Ba. 60 gg d.f.f.m.", ("eom", 2)),
                   ("Bonifico bancario 60 gg d.f.", 60), ("Rimessa diretta 15 gg", 15)),
    ("IT", "en"): (("Bank transfer 30 days end of month", ("eom", 1)), ("Bank transfer 60 days from invoice date", 60),
                   ("Bank transfer 15 days", 15)),
    ("PT", "pt"): (("Transferência bancária a 15 dias", 15), ("30 dias fim de mês", ("eom", 1)), ("60 dias", 60),
                   ("Pronto pagamento", 0), ("Transferência bancária a 30 dias", 30)),
    ("PT", "en"): (("Bank transfer, 15 days", 15), ("30 days end of month", ("eom", 1)), ("60 days", 60),
                   ("Immediate payment", 0)),
    ("PL", "pl"): (("przelew", 14), ("przelew", 21), ("przelew", 30), ("przelew", 60), ("przelew", 7)),
    ("PL", "en"): (("bank transfer", 14), ("bank transfer", 21), ("bank transfer", 30)),
}

# Sentences, by (country, language). Lists give choices; one is drawn per layout.
TEXTS = {
    ("ES", "es"): {
        "privacy": ("De conformidad con el Reglamento (UE) 2016/679 (RGPD), le informamos de que sus datos forman "
                    "parte de un fichero responsabilidad de {firm} cuya finalidad es la gestión de la relación "
                    "comercial. Puede ejercer sus derechos de acceso, rectificación y supresión en {email}.",),
        "register": ("Inscrita en el Registro Mercantil de {town}, Tomo {d4}, Folio {d2}, Hoja {sheet}-{d5}, "
                     "Inscripción 1ª. {tax_label} {tax}",),
        "exempt": ("Operación exenta de IVA en virtud del artículo 21 de la Ley 37/1992 (exportación).",
                   "Entrega intracomunitaria exenta de IVA, artículo 25 de la Ley 37/1992."),
        "reason": ("Devolución de mercancía", "Mercancía defectuosa"),
        "delivery": ("Albarán nº {n} de fecha {date}", "Según albarán {n} del {date}"),
        "ref": ("{label}: {number} de fecha {date}",),
    },
    ("ES", "en"): {
        "privacy": ("In accordance with Regulation (EU) 2016/679 (GDPR), your data are processed by {firm} to manage "
                    "our business relationship. You may exercise your rights of access, rectification and erasure "
                    "at {email}.",),
        "register": ("Registered in the Mercantile Register of {town}, Volume {d4}, Folio {d2}, Sheet {sheet}-{d5}. "
                     "{tax_label} {tax}",),
        "exempt": ("VAT exempt export under article 21 of Spanish VAT Law 37/1992.",
                   "Intra-Community supply exempt from VAT, article 25 of Law 37/1992."),
        "reason": ("Returned goods", "Defective goods"),
        "delivery": ("Delivery note No. {n} of {date}",),
        "ref": ("{label}: {number} of {date}",),
    },
    ("IT", "it"): {
        "privacy": ("Informativa ai sensi del Reg. UE 2016/679: i dati sono trattati per la sola gestione del "
                    "rapporto commerciale. Contributo ambientale CONAI assolto ove dovuto.",),
        "register": ("Cap. Soc. € 10.000,00 i.v. - R.E.A. {province} {d6} - Reg. Imprese di {town} e C.F. {tax}",),
        "exempt": ("Operazione non imponibile ai sensi dell'art. 41 D.L. 331/93.",
                   "Non imponibile art. 8 c.1 lett. a) D.P.R. 633/72 (esportazione)."),
        "reason": ("Reso merce", "Storno per merce difettosa"),
        "delivery": ("DDT n. {n} del {date}", "Rif. DDT n. {n} del {date}"),
        "ref": ("{label} {number} del {date}",),
        "courtesy": ("Copia di cortesia priva di valore ai fini fiscali ai sensi dell'art. 21 D.P.R. 633/72. "
                     "L'originale del documento è disponibile nella Sua area riservata del sito web dell'Agenzia "
                     "delle Entrate.",),
    },
    ("IT", "en"): {
        "privacy": ("Privacy notice under EU Reg. 2016/679: data are processed only to manage our business "
                    "relationship. CONAI environmental contribution paid where due.",),
        "register": ("Share capital € 10,000.00 fully paid - R.E.A. {province} {d6} - Companies Register of {town} "
                     "and tax code {tax}",),
        "exempt": ("Non-taxable transaction under art. 41 D.L. 331/93.",
                   "Non-taxable export, art. 8 par. 1 a) D.P.R. 633/72."),
        "reason": ("Returned goods", "Credit for defective goods"),
        "delivery": ("Delivery note No. {n} of {date}",),
        "ref": ("{label} {number} of {date}",),
    },
    ("PT", "pt"): {
        "certified": ("{hash}-Processado por programa certificado n.º {cert}/AT",),
        "available": ("Os bens e/ou serviços foram colocados à disposição do adquirente na data do documento.",
                      "Bens colocados à disposição do adquirente em {date}, em {town}."),
        "register": ("Capital social: 50.000,00 €. Matriculada na C.R.C. de {town} sob o n.º único {tax}.",),
        "exempt": ("M16 - Isento nos termos do artigo 14.º do RITI", "M05 - Isento nos termos do artigo 14.º do CIVA"),
        "reason": ("Devolução de mercadoria", "Mercadoria com defeito"),
        "ref": ("{label}: {number} de {date}",),
        "software": ("{software} - Software de Faturação",),
    },
    ("PT", "en"): {
        "certified": ("{hash}-Processado por programa certificado n.º {cert}/AT",
                      "{hash}-Processed by certified program no. {cert}/AT"),
        "available": ("Goods and/or services were made available to the purchaser on the document date.",),
        "register": ("Share capital: 50,000.00 €. Registered at the Commercial Registry of {town}, no. {tax}.",),
        "exempt": ("M16 - Exempt under article 14 of RITI", "M05 - Exempt under article 14 of CIVA"),
        "reason": ("Returned goods", "Defective goods"),
        "ref": ("{label}: {number} of {date}",),
        "software": ("{software} - Invoicing Software",),
    },
    ("PL", "pl"): {
        "register": ("Sąd Rejonowy dla {court}, KRS {krs}, kapitał zakładowy 50 000,00 zł",),
        "reason": ("zwrot towaru", "reklamacja - towar wadliwy"),
        "ref": ("{label} {number} z dnia {date}",),
        "fx": ("Kurs {pair}: {rate} PLN, tabela NBP nr {table} z dnia {date}",),
        "vat_pln": ("Kwota VAT w PLN: {amount} zł",),
        "software": ("Wystawiono w programie {software}", "Faktura wygenerowana w systemie {software}"),
        "no_signature": ("Faktura nie wymaga podpisu.",),
    },
    ("PL", "en"): {
        "register": ("District Court for {court}, KRS {krs}, share capital PLN 50,000.00",),
        "reason": ("returned goods", "complaint - defective goods"),
        "ref": ("{label} {number} of {date}",),
        "fx": ("Exchange rate {pair}: {rate} PLN, NBP table No. {table} of {date}",),
        "vat_pln": ("VAT amount in PLN: {amount} PLN",),
        "software": ("Issued with {software}",),
        "no_signature": ("This invoice does not require a signature.",),
    },
}
COURTS = {"Kraków": "Krakowa-Śródmieścia w Krakowie, XI Wydział Gospodarczy KRS",
          "Łódź": "Łodzi-Śródmieścia w Łodzi, XX Wydział Gospodarczy KRS",
          "Gdańsk": "Gdańsk-Północ w Gdańsku, VII Wydział Gospodarczy KRS"}
