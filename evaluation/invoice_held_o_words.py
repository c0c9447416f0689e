"""held-o's wordings and firms: what the billing software of India, Australia and New Zealand, and the United States
and Canada prints on a tax invoice or a wholesale distributor's invoice, the tax each market charges, and the
sellers and customers the invoices name.

A wording may hold ``{name}`` (a tax's name: CGST, SGST, IGST, GST, HST, PST, QST, Sales Tax), ``{rate}`` (its rate
as printed: 9%, 2.5%, 8.875%), ``{total}`` (the whole tax's rate, on a line naming all of it) and ``{code}`` (the
currency's ISO code); :func:`evaluation.invoice_held_o.fill` puts them in. Every firm, person, street and number is
invented; towns, postcodes, states and provinces are real, in their country's form.
"""

from __future__ import annotations

__all__ = ["ADDRESSES", "ANZ", "BUYERS", "CARRIERS", "COMMON", "INDIA", "INDIAN_STATES", "MARKETS", "MARKET_WEIGHTS",
           "POSTCODE_FIRST", "SELLERS", "TEXT", "US"]

# Each market: its kind of invoice, currency, the marks its software puts before a total, the paper, the date
# styles, and the taxes a seller charges there: (name, rate) parts summing to one rate, or () for none.
MARKETS = {
    "IN": {"kind": "india", "currency": "INR", "marks": ("₹", "Rs.", "INR", ""), "page": "A4",
           "dates": ("o:dd-mm-Y", "o:d-Mon-yy", "o:dd-Mon-Y", "o:dd/mm/Y", "o:dd.mm.Y"),
           "taxes": ((("CGST", "0.09"), ("SGST", "0.09")), (("IGST", "0.18"),), (("CGST", "0.06"), ("SGST", "0.06")),
                     (("IGST", "0.12"),), (("CGST", "0.025"), ("SGST", "0.025")))},
    "AU": {"kind": "anz", "currency": "AUD", "marks": ("$", "A$", ""), "page": "A4",
           "dates": ("o:dd/mm/Y", "o:d Mon Y", "o:d Month Y", "o:dd Month Y"), "taxes": ((("GST", "0.10"),),)},
    "NZ": {"kind": "anz", "currency": "NZD", "marks": ("$", "NZ$", ""), "page": "A4",
           "dates": ("o:dd/mm/Y", "o:d Mon Y", "o:d Month Y"), "taxes": ((("GST", "0.15"),),)},
    "US": {"kind": "us", "currency": "USD", "marks": ("$", "", "US$"), "page": "Letter",
           "dates": ("o:mm/dd/Y", "o:m/d/Y", "o:Mon d, Y", "o:Month d, Y"), "taxes": None},  # by the seller's state
    "CA": {"kind": "us", "currency": "CAD", "marks": ("$", "", "CA$", "C$"), "page": "Letter",
           "dates": ("o:Y-mm-dd", "o:Mon d, Y", "o:Month d, Y", "o:mm/dd/Y"), "taxes": None},  # by its province
}
MARKET_WEIGHTS = {"IN": 4, "AU": 2, "NZ": 1, "US": 3, "CA": 2}

# Sellers: name, street lines, town line, region (state/province), its code, phone. An Indian seller's GSTIN
# starts with its state's code; a US or Canadian one's sales tax is its state's or province's.
SELLERS = {
    "IN": (("Shreeji Handicrafts Pvt. Ltd.", ("Plot No. 14, KIADB Industrial Area", "Peenya 2nd Stage"),
            "Bengaluru - 560058", "Karnataka", "29", "080 2839 4410"),
           ("Lakshmi Home Decor", ("12/4, Anna Salai",), "Chennai - 600002", "Tamil Nadu", "33", "044 2852 1177"),
           ("Aarav Exports & Traders", ("Shop No. 7, Crawford Market", "Lokmanya Tilak Marg"), "Mumbai - 400001",
            "Maharashtra", "27", "022 2262 0915"),
           ("Jaipur Block Prints LLP", ("B-22, Sitapura Industrial Area",), "Jaipur - 302022", "Rajasthan", "08",
            "0141 277 0342"),
           ("Noida Paper Products Pvt. Ltd.", ("C-56, Sector 63",), "Noida - 201301", "Uttar Pradesh", "09",
            "0120 424 8861"),
           ("Sabarmati Kitchenware Co.", ("27, Naroda GIDC, Phase I",), "Ahmedabad - 382330", "Gujarat", "24",
            "079 2282 6473")),
    "AU": (("Harbour Gift Supply Pty Ltd", ("Unit 5, 18 Parramatta Road",), "Auburn NSW 2144", "NSW", "",
            "(02) 9748 3120"),
           ("Southern Cross Homewares", ("42 Chapel Street",), "Windsor VIC 3181", "VIC", "", "(03) 9521 0476"),
           ("Moreton Party Wholesale Pty Ltd", ("7/120 Ipswich Road",), "Woolloongabba QLD 4102", "QLD", "",
            "(07) 3391 5528"),
           ("Fremantle Trading Co", ("3 Pakenham Street",), "Fremantle WA 6160", "WA", "", "(08) 9335 6612")),
    "NZ": (("Kauri Gifts Limited", ("14 Ponsonby Road", "Grey Lynn"), "Auckland 1021", "", "", "09 376 4410"),
           ("Southern Alps Homeware Ltd", ("88 Tuam Street",), "Christchurch 8011", "", "", "03 379 2286"),
           ("Harbourside Trading NZ Ltd", ("201 Cuba Street", "Te Aro"), "Wellington 6011", "", "", "04 385 9917")),
    "US": (("Midwest Novelty Distributors, Inc.", ("2400 W. Ogden Ave.",), "Chicago, IL 60608", "IL", "0.1025",
            "(312) 555-0148"),
           ("Lone Star Gift & Party Supply", ("8100 Ambassador Row",), "Dallas, TX 75247", "TX", "0.0825",
            "(214) 555-0193"),
           ("Empire Wholesale Housewares Corp.", ("45-10 Vernon Blvd.",), "Long Island City, NY 11101", "NY",
            "0.08875", "(718) 555-0122"),
           ("Pacific Coast Home Goods LLC", ("1550 E. Slauson Ave.",), "Los Angeles, CA 90011", "CA", "0.095",
            "(323) 555-0167"),
           ("Bay State Paper & Party Co.", ("200 Everett Ave.",), "Chelsea, MA 02150", "MA", "0.0625",
            "(617) 555-0134")),
    "CA": (("Maple Leaf Giftware Ltd.", ("3390 Wolfedale Rd.",), "Mississauga, ON L5C 1V8", "ON", "HST:0.13",
            "(905) 555-0181"),
           ("Prairie Wholesale Distributors Inc.", ("10820 170 St NW",), "Edmonton, AB T5S 1H5", "AB", "GST:0.05",
            "(780) 555-0126"),
           ("Coastline Home Supply Ltd.", ("1885 Clark Dr.",), "Vancouver, BC V5N 3G5", "BC", "GST:0.05 PST:0.07",
            "(604) 555-0159"),
           ("Laurentian Gift Distributors Inc.", ("8500 Boul. Decarie",), "Montreal, QC H4P 2N2", "QC",
            "GST:0.05 QST:0.09975", "(514) 555-0172")),
}
INDIAN_STATES = (("Karnataka", "29"), ("Tamil Nadu", "33"), ("Maharashtra", "27"), ("Rajasthan", "08"),
                 ("Uttar Pradesh", "09"), ("Gujarat", "24"), ("Kerala", "32"), ("Telangana", "36"), ("Delhi", "07"),
                 ("West Bengal", "19"))
CARRIERS = {"india": ("Blue Dart Express", "DTDC Courier", "Gati Ltd.", "By Road", "VRL Logistics"),
            "anz": ("StarTrack", "Toll Priority", "Couriers Please", "Mainfreight", "NZ Post"),
            "us": ("UPS Ground", "FedEx Ground", "Best Way", "Our Truck", "Customer Pickup", "Purolator",
                   "R+L Carriers")}

# Customers: a business name drawn from the customer number (or the invoice's), and an address in the record's
# country: (street, town, postcode, postcode first).
BUYERS = ("Hartley & Finch Gifts", "The Corner Gift Shop", "Bramble Lane Interiors", "Kettle & Crumb Tearooms",
          "Little Acorn Toys", "Seaview Souvenirs", "Maison Rose Boutique", "Blue Door Homeware",
          "Willow Tree Crafts", "Parkside Party Shop", "Cobble Street Emporium", "Harbour Lights Gifts")
ADDRESSES = {
    "United Kingdom": (("14 Market Street", "Hebden Bridge", "HX7 6AA"), ("3 Castle Walk", "Ludlow", "SY8 1AY"),
                       ("22 Fore Street", "St Ives", "TR26 1HE"), ("118 High Street", "Whitstable", "CT5 1AZ"),
                       ("7 Bridge Street", "Llangollen", "LL20 8PF")),
    "EIRE": (("12 Main Street", "Kinsale, Co. Cork", ""), ("4 Quay Street", "Galway", "H91 T2C8")),
    "Germany": (("Hauptstraße 21", "Heidelberg", "69117"), ("Lindenallee 8", "Münster", "48147")),
    "France": (("12 rue des Arts", "Lyon", "69002"), ("5 place du Marché", "Annecy", "74000")),
    "Australia": (("14 Beach Road", "Sandringham VIC", "3191"),),
    "Netherlands": (("Kerkstraat 40", "Haarlem", "2011 HK"),),
    "Norway": (("Storgata 12", "Tromsø", "9008"),),
}
POSTCODE_FIRST = {"Germany", "France", "Netherlands", "Norway"}

# Wordings of each kind: key -> choices. Titles, labels of the header and the totals, then column headings.
INDIA = {
    "title": ("Tax Invoice", "TAX INVOICE", "Tax Invoice"),
    "credit_title": ("Credit Note", "CREDIT NOTE"),
    "invoice_number": ("Invoice No.", "Invoice No", "Invoice #", "Inv. No.", "Invoice Number", "Bill No."),
    "credit_number": ("Credit Note No.", "Note No.", "CN No.", "Credit Note #"),
    "invoice_date": ("Dated", "Invoice Date", "Date", "Inv. Date", "Date of Invoice"),
    "customer_id": ("Party Code", "Customer ID", "Customer Code", "Buyer Code", "Cust. ID", "Client Code"),
    "subtotal": ("Taxable Value", "Sub Total", "Taxable Amount", "Total Taxable Value", "Total Before Tax"),
    "tax": ("{name}", "{name} @ {rate}", "Output {name} @ {rate}", "{name} ({rate})", "Add: {name} @ {rate}",
            "{name}{plain}"),
    "tax_total": ("Total Tax", "Total GST", "Tax Amount", "GST Amount"),
    "total": ("Total", "Grand Total", "Total Amount", "Invoice Total", "Total Invoice Value",
              "Total Amount After Tax"),
    "words": ("Amount Chargeable (in words)", "Total In Words", "Amount in Words", "Rupees in Words",
              "Invoice Amount in Words"),
    "gstin": ("GSTIN", "GSTIN/UIN", "GST No.", "GSTIN No."),
    "state": ("State Name", "State"),
    "place": ("Place of Supply", "Place Of Supply", "Supply Place"),
    "pan": ("PAN", "Company's PAN", "PAN No."),
    "bill_to": ("Buyer (Bill to)", "Bill To", "Billed To", "Details of Receiver (Billed to)", "Customer Details"),
    "ship_to": ("Consignee (Ship to)", "Ship To", "Shipped To", "Details of Consignee (Shipped to)"),
    "order": ("Buyer's Order No.", "PO No.", "Order No.", "P.O. No."),
    "order_date": ("Dated", "PO Date", "Order Date"),
    "terms": ("Mode/Terms of Payment", "Terms", "Payment Terms"),
    "due_date": ("Due Date", "Payment Due"),
    "dispatch": ("Dispatched through", "Transport", "Mode of Transport"),
    "reverse": ("Reverse Charge", "Whether tax is payable on reverse charge"),
    "original": ("Original Invoice No.", "Against Invoice No.", "Ref. Invoice No."),
    "bank": ("Company's Bank Details", "Bank Details", "Our Bank Details"),
    "declaration": ("Declaration", "Terms & Conditions", "Terms and Conditions"),
    "signatory": ("Authorised Signatory", "Authorized Signatory"),
    "hsn_summary": ("Taxable Value", "Taxable Amount"),
    "summary_hsn": ("HSN/SAC", "HSN"),
    "summary_rate": ("Rate",),
    "summary_amount": ("Amount",),
    "summary_tax": ("Total Tax Amount", "Total Tax"),
    "summary_total": ("Total",),
    "for_firm": ("for", "For"),
    "eoe": ("E. & O.E", "E.& O.E."),
    "line_no": ("Sl No.", "S.No.", "#", "Sr.", "Sl."),
    "description": ("Description of Goods", "Item & Description", "Particulars", "Product Description",
                    "Description of Goods/Services", "Item Description"),
    "code": ("Item Code", "Part No.", "Product Code", "SKU"),
    "code_under": ("Part No.", "Item Code:", "SKU:"),
    "hsn": ("HSN/SAC", "HSN Code", "HSN"),
    "quantity": ("Quantity", "Qty", "Qty."),
    "unit": ("per", "Unit", "UOM"),
    "unit_price": ("Rate", "Unit Price", "Price", "Rate per Unit"),
    "gst_rate": ("GST Rate", "GST %", "Tax %", "Tax Rate"),
    "line_tax": ("{name} Amt", "{name} Amount", "{name} ({rate})", "{name}"),
    "line_total": ("Total", "Amount (incl. GST)", "Net Amount", "Total Amount"),
    "amount": ("Amount", "Taxable Value", "Taxable Amt.", "Value", "Amount (Rs.)"),
}
ANZ = {
    "title": ("Tax Invoice", "TAX INVOICE"),
    "credit_title": ("Credit Note", "CREDIT NOTE", "Adjustment Note", "Tax Credit Note"),
    "invoice_number": ("Invoice Number", "Invoice No.", "Invoice #", "Tax Invoice No."),
    "credit_number": ("Credit Note Number", "Credit Note No.", "Adjustment Note No.", "Credit Number"),
    "invoice_date": ("Invoice Date", "Date", "Date Issued", "Issue Date"),
    "customer_id": ("Account Number", "Customer No.", "Customer ID", "Customer Code", "Cust. Account"),
    "subtotal": ("Subtotal", "Sub Total", "Total ex GST", "Subtotal (excl. GST)", "Total excluding GST"),
    "tax": ("TOTAL GST {rate}", "GST", "GST {rate}", "Plus GST", "GST @ {rate}", "Total GST"),
    "total": ("TOTAL {code}", "Total inc. GST", "Total (incl. GST)", "Total Amount", "Invoice Total",
              "Total {code} incl. GST"),
    "amount_due": ("AMOUNT DUE {code}", "Amount Due", "Balance Due", "Amount Due {code}"),
    "paid": ("Less Amount Paid", "Amount Applied", "Paid to Date"),
    "due_date": ("Due Date", "Payment Due", "Due"),
    "reference": ("Reference", "Your Order No.", "Customer PO", "Order Number"),
    "abn": ("ABN", "A.B.N."),
    "gst_no": ("GST Number", "GST No.", "GST Reg. No."),
    "ship_to": ("Deliver To", "Delivery Address", "Ship To"),
    "bill_to": ("Bill To", "Invoice To", "To"),
    "terms": ("Terms", "Payment Terms"),
    "freight": ("Freight", "Freight (ex GST)", "Delivery"),
    "advice": ("PAYMENT ADVICE", "Remittance Advice", "How to Pay"),
    "enclosed": ("Amount Enclosed", "Enter amount paid"),
    "exclusive": ("Amounts are tax exclusive", "All prices exclude GST", "Prices are GST exclusive"),
    "currency": ("Currency: {code}", "All amounts in {code}", "Amounts in {code}"),
    "code": ("Item", "Item Code", "Item Number", "Code", "Product Code"),
    "code_under": ("Item:", "Code:", "Item Code:"),
    "description": ("Description", "Item Description", "Details"),
    "quantity": ("Quantity", "Qty", "Qty Supplied"),
    "unit_price": ("Unit Price", "Price", "Unit Price ex GST", "Rate", "Unit Price (ex)"),
    "gst_rate": ("GST", "Tax Rate", "GST Rate", "Tax"),
    "line_tax": ("GST", "GST Amount", "GST Amt"),
    "amount": ("Amount {code}", "Amount", "Total ex GST", "Line Total", "Amount ex GST"),
}
US = {
    "title": ("INVOICE", "Invoice", "SALES INVOICE", "Invoice"),
    "credit_title": ("CREDIT MEMO", "Credit Memo", "CREDIT INVOICE"),
    "invoice_number": ("Invoice No.", "Invoice #", "Invoice Number", "INVOICE NO."),
    "credit_number": ("Credit Memo No.", "Memo No.", "Credit No.", "CREDIT MEMO NO."),
    "invoice_date": ("Invoice Date", "Date", "Inv. Date", "INVOICE DATE"),
    "customer_id": ("Customer No.", "Cust. No.", "Account No.", "Customer #", "Customer ID", "Bill-To No."),
    "subtotal": ("Merchandise Total", "Subtotal", "Sale Amount", "Merchandise", "Total Merchandise"),
    "tax": ("{name}", "{name} {rate}", "{name} @ {rate}", "{name} ({rate})"),
    "total": ("Invoice Total", "Total Due", "TOTAL", "Amount Due", "Total Invoice", "Please Pay This Amount"),
    "credit_total": ("Total Credit", "Credit Total", "Amount Credited"),
    "sold_to": ("Sold To", "SOLD TO", "Bill To", "Sold To:"),
    "ship_to": ("Ship To", "SHIP TO", "Ship To:"),
    "order": ("P.O. Number", "Customer P.O.", "PO #", "Purchase Order", "Your P.O."),
    "order_date": ("Order Date", "Ord. Date", "Date Ordered"),
    "ship_date": ("Ship Date", "Date Shipped"),
    "terms": ("Terms", "Payment Terms", "TERMS"),
    "ship_via": ("Ship Via", "Shipped Via", "Via", "Carrier"),
    "salesperson": ("Salesperson", "Sales Rep", "Slsmn", "Rep"),
    "freight": ("Freight", "Shipping & Handling", "Freight Out"),
    "remit": ("Remit To", "Please Remit To", "Remit Payment To"),
    "exempt": ("Sales tax exempt: resale certificate on file", "Tax exempt - resale", "Exempt from sales tax"),
    "currency": ("All amounts in {code}", "Currency: {code}", "Amounts in {code} funds"),
    "line_no": ("Line", "Ln", "Line #"),
    "code": ("Item No.", "Item #", "Product No.", "Part Number", "SKU", "Item Number"),
    "description": ("Description", "Item Description", "Product Description"),
    "ordered": ("Qty Ordered", "Ordered", "Qty Ord", "Order Qty"),
    "quantity": ("Qty Shipped", "Shipped", "Ship Qty", "Qty Shp"),
    "backorder": ("Back Ordered", "B/O", "Qty B/O", "Backorder", "Back Order"),
    "unit": ("U/M", "UOM", "Unit"),
    "unit_price": ("Unit Price", "Price", "Net Price", "Price Each"),
    "amount": ("Extended Price", "Ext. Amount", "Extension", "Amount", "Ext Price", "Extended"),
}
COMMON = {
    "india": {"page": ("Page {n} of {m}", "Page {n}", "Page No. {n}/{m}"),
              "continued": ("continued to page number {next}", "Contd. on page {next}", "Continued on Page {next}"),
              "carried": ("(continued from page {prev})", "... page {prev} contd.", "")},
    "anz": {"page": ("Page {n} of {m}", "Page {n}/{m}", "{n} of {m}"),
            "continued": ("Continued on page {next}", "Continued over page ({next})",
                          "Invoice continues on page {next}"),
            "carried": ("", "(continued)", "Continued from page {prev}")},
    "us": {"page": ("Page {n} of {m}", "PAGE {n}", "Page: {n}", "Pg {n} of {m}"),
           "continued": ("CONTINUED ON PAGE {next}", "*** Continued on page {next} ***", "Continued - page {next}"),
           "carried": ("", "CONTINUED FROM PAGE {prev}", "(Page {prev} continued)")},
}
TEXT = {
    "india": {"declaration": ("We declare that this invoice shows the actual price of the goods described and that "
                              "all particulars are true and correct.",
                              "Goods once sold will not be taken back. Interest @ 18% p.a. will be charged if the "
                              "bill is not paid on the due date. Subject to local jurisdiction."),
              "computer": ("This is a Computer Generated Invoice", "This is a computer generated document and "
                           "requires no signature."),
              "terms": ("{days} Days", "Net {days}", "Within {days} days"),
              "bank": ("HDFC Bank, A/c No. 5020{d8}, IFSC HDFC000{d4}", "State Bank of India, A/c No. 3{d10}, IFSC "
                       "SBIN00{d5}", "ICICI Bank Ltd, A/c No. 0{d11}, IFSC ICIC000{d4}"),
              "credit_reason": ("Reason: goods returned", "Reason: Sales Return", "Reason: rate difference")},
    "anz": {"terms": ("{days} days", "Net {days} days", "Due {days} days from invoice"),
            "eom": "20th of the following month",
            "bank": {"AU": ("Bank: Westpac  BSB: 032-{d3}  Account: {d6}", "Direct deposit to BSB 062-{d3} "
                            "Account No. {d4} {d4b}", "EFT: NAB  BSB 083-{d3}  Acc {d9}"),
                     "NZ": ("Bank: ANZ  Account: 01-0{d3}-0{d6}-00", "Direct credit to 12-3{d3}-0{d6}-00",
                            "ASB Bank  12-3011-0{d6}-51")},
            "thanks": ("Thank you for your business.", "Please quote the invoice number with your payment.",
                       "Goods remain the property of the seller until paid in full.")},
    "us": {"terms": ("Net 30", "Net 30 Days", "2% 10, Net 30", "Net 45", "Due on Receipt", "Net 60"),
           "fine": ("Past due invoices are subject to a finance charge of 1.5% per month.", "All claims for "
                    "shortages must be made within 5 days of receipt. Returns require an RA number.",
                    "Thank you for your order! Questions? Call our customer service department."),
           "credit_note": ("Credit applied to your account. Do not pay.", "Return credit - RA {ra}",
                           "This credit may be applied against future invoices."),
           "people": ("J. Ramirez", "T. Nguyen", "M. O'Brien", "HOUSE", "K. Patel", "S. Lindqvist")},
}
