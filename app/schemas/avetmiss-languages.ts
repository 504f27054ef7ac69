/**
 * Language identifier (NAT00080 main language other than English spoken at home): the 4-digit
 * codes of the ABS Australian Standard Classification of Languages (ASCL), one "code name" a
 * line, with the broad groups ("nfd" codes ending in 00) for answers that name only a group.
 * Sources are in docs/decisions/009. Data only, like countries.ts.
 */
export const ASCL_LANGUAGES = `
0000 Inadequately described
0001 Non Verbal
0003 Swiss, so described
0005 Creole
0006 French Creole
0007 Spanish Creole
0008 Portuguese Creole
0009 Pidgin
1000 Northern European Languages
1100 Celtic
1101 Gaelic (Scotland)
1102 Irish
1103 Welsh
1201 English
1301 German
1302 Letzeburgish
1303 Yiddish
1401 Dutch
1402 Frisian
1403 Afrikaans
1500 Scandinavian
1501 Danish
1502 Icelandic
1503 Norwegian
1504 Swedish
1601 Estonian
1602 Finnish
2000 Southern European Languages
2101 French
2201 Greek
2300 Iberian Romance
2301 Catalan
2302 Portuguese
2303 Spanish
2401 Italian
2501 Maltese
2900 Other Southern European Languages
2901 Basque
2902 Latin
3000 Eastern European Languages
3100 Baltic
3101 Latvian
3102 Lithuanian
3301 Hungarian
3400 East Slavic
3401 Belorussian
3402 Russian
3403 Ukrainian
3500 South Slavic
3501 Bosnian
3502 Bulgarian
3503 Croatian
3504 Macedonian
3505 Serbian
3506 Slovene
3600 West Slavic
3601 Czech
3602 Polish
3603 Slovak
3900 Other Eastern European Languages
3901 Albanian
3903 Aromunian (Macedo-Romanian)
3904 Romanian
3905 Romany
4000 Southwest and Central Asian Languages
4100 Iranic
4101 Kurdish
4102 Pashto
4104 Balochi
4105 Dari
4106 Persian (excluding Dari)
4200 Middle Eastern Semitic Languages
4202 Arabic
4203 Assyrian
4204 Hebrew
4300 Turkic
4301 Turkish
4302 Azeri
4303 Tatar
4304 Turkmen
4305 Uygur
4306 Uzbek
4900 Other Southwest and Central Asian Languages
4901 Armenian
4902 Georgian
5000 Southern Asian Languages
5100 Dravidian
5101 Kannada
5102 Malayalam
5103 Tamil
5104 Telugu
5105 Tulu
5200 Indo-Aryan
5201 Bengali
5202 Gujarati
5203 Hindi
5204 Konkani
5205 Marathi
5206 Nepali
5207 Punjabi
5208 Sindhi
5211 Sinhalese
5212 Urdu
5213 Assamese
5214 Dhivehi
5215 Kashmiri
5216 Oriya
5999 Other Southern Asian Languages
6000 Southeast Asian Languages
6101 Burmese
6102 Haka
6103 Karen
6200 Hmong-Mien
6201 Hmong
6300 Mon-Khmer
6301 Khmer
6302 Vietnamese
6303 Mon
6400 Tai
6401 Lao
6402 Thai
6500 Southeast Asian Austronesian Languages
6501 Bisaya
6502 Cebuano
6503 Ilokano
6504 Indonesian
6505 Malay
6507 Tetum
6508 Timorese
6511 Tagalog
6512 Filipino
6513 Acehnese
6514 Balinese
6515 Bikol
6516 Iban
6518 Javanese
6521 Pampangan
6999 Other Southeast Asian Languages
7000 Eastern Asian Languages
7100 Chinese
7101 Cantonese
7102 Hakka
7103 Hokkien
7104 Mandarin
7105 Teochew
7106 Wu
7201 Japanese
7301 Korean
7900 Other Eastern Asian Languages
7901 Tibetan
7902 Mongolian
8000 Australian Indigenous Languages
8101 Anindilyakwa
8102 Burarra
8108 Kunwinjku
8111 Maung
8113 Ngan'gikurunggurr
8114 Nunggubuyu
8115 Rembarrnga
8117 Tiwi
8121 Alawa
8122 Dalabon
8123 Gudanji
8124 Gundjeihmi
8125 Gun-nartpa
8126 Gurr-goni
8127 Iwaidja
8128 Jaminjung
8131 Jawoyn
8132 Jingulu
8133 Kunbarlang
8134 Kune
8135 Kuninjku
8136 Larrakiya
8137 Malak Malak
8138 Mangarrayi
8141 Maringarr
8142 Marra
8143 Marrithiyel
8144 Matngala
8145 Mayali
8146 Murrinh Patha
8147 Na-kara
8151 Ngalakgan
8152 Ngaliwurru
8153 Nungali
8154 Wambaya
8155 Wardaman
8200 Yolngu Matha
8210 Dhangu
8211 Galpu
8212 Golumala
8213 Wangurri
8220 Dhay'yi
8221 Dhalwangu
8222 Djarrwark
8230 Dhuwal
8231 Djambarrpuyngu
8232 Djapu
8233 Daatiwuy
8234 Marrangu
8235 Liyagalawumirr
8240 Dhuwala
8241 Dhuwaya
8242 Gumatj
8243 Gupapuyngu
8244 Guyamirrilili
8245 Madarrpa
8246 Manggalili
8247 Wubulkarra
8250 Djinang
8251 Wurlaki
8260 Djinba
8261 Ganalbingu
8270 Yakuy
8271 Ritharrngu
8280 Nhangu, nfd
8281 Nhangu
8290 Other Yolngu Matha
8300 Cape York Peninsula Languages
8301 Kuku Yalanji
8302 Guugu Yimidhirr
8303 Kuuku-Ya'u
8304 Wik Mungkan
8305 Djabugay
8306 Dyirbal
8307 Girramay
8308 Koko-Bera
8311 Kuuk Thayorre
8312 Lamalama
8313 Yidiny
8314 Wik Ngathan
8400 Torres Strait Island Languages
8402 Meriam Mir
8403 Torres Strait Creole
8500 Northern Desert Fringe Area Languages
8504 Bilinarra
8505 Gurindji
8506 Gurindji Kriol
8507 Jaru
8508 Light Warlpiri
8511 Malngin
8512 Mudburra
8513 Ngandi
8514 Ngardi
8515 Ngarinyman
8516 Walmajarri
8517 Wanyjirra
8518 Warlmanpa
8521 Warlpiri
8522 Warumungu
8600 Arandic
8603 Alyawarr
8604 Anmatyerr
8605 Arrernte
8606 Kaytetye
8700 Western Desert Language
8703 Antikarinya
8704 Kartujarra
8705 Kukatha
8706 Kukatja
8707 Luritja
8708 Manyjilyjarra
8711 Martu Wangka
8712 Ngaanyatjarra
8713 Pintupi
8714 Pitjantjatjara
8715 Wangkajunga
8716 Wangkatha
8717 Warnman
8718 Yankunytjatjara
8721 Yulparija
8800 Kimberley Area Languages
8801 Bardi
8802 Bunuba
8803 Gooniyandi
8804 Miriwoong
8805 Ngarinyin
8806 Nyikina
8807 Worla
8808 Worrorra
8811 Wunambal
8812 Yawuru
8900 Other Australian Indigenous Languages
8901 Adnymathanha
8902 Arabana
8903 Bandjalang
8904 Banyjima
8905 Batjala
8906 Bidjara
8907 Dhanggatti
8908 Diyari
8911 Gamilaraay
8912 Garrwa
8913 Garuwali
8914 Githabul
8915 Gumbaynggir
8916 Kanai
8917 Karajarri
8918 Kariyarra
8921 Kaurna
8922 Kayardild
8923 Kija
8924 Kriol
8925 Lardil
8926 Mangala
8927 Muruwari
8928 Narungga
8931 Ngarluma
8932 Ngarrindjeri
8933 Nyamal
8934 Nyangumarta
8935 Nyungar
8936 Paakantyi
8937 Palyku/Nyiyaparli
8938 Wajarri
8941 Wiradjuri
8942 Yanyuwa
8943 Yindjibarndi
8944 Yinhawangka
8945 Yorta Yorta
8998 Aboriginal English, so described
9000 Other Languages
9101 American Languages
9200 African Languages
9201 Acholi
9203 Akan
9205 Mauritian Creole
9206 Oromo
9207 Shona
9208 Somali
9211 Swahili
9212 Yoruba
9213 Zulu
9214 Amharic
9215 Bemba
9216 Dinka
9217 Ewe
9218 Ga
9221 Harari
9222 Hausa
9223 Igbo
9224 Kikuyu
9225 Krio
9226 Luganda
9227 Luo
9228 Ndebele
9231 Nuer
9232 Nyanja (Chichewa)
9233 Shilluk
9234 Tigre
9235 Tigrinya
9236 Tswana
9237 Xhosa
9238 Seychelles Creole
9300 Pacific Austronesian Languages
9301 Fijian
9302 Gilbertese
9303 Maori (Cook Island)
9304 Maori (New Zealand)
9305 Motu
9306 Nauruan
9307 Niue
9308 Samoan
9311 Tongan
9312 Rotuman
9313 Tokelauan
9314 Tuvaluan
9315 Yapese
9400 Oceanian Pidgins and Creoles
9401 Tok Pisin
9402 Bislama
9403 Hawaiian English
9404 Pitcairnese
9405 Solomon Islands Pijin
9500 Papua New Guinea Papuan Languages
9502 Kiwai
9601 Invented Languages
9700 Sign Languages
9701 Auslan
9702 Makaton
`;
