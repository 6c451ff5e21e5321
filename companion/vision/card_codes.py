"""The card payloads' QR modules, stored: encoding them costs 4 ms each.

OpenCV's encoder takes about 4 ms a code (it scores every mask pattern), so
the 120 card codes cost half a second to encode: the dictionary reader
(:mod:`companion.vision.dictionary`) paid it on the first cold scan that
needed it, which a player felt as a 0.4-0.5 s scan (docs/benchmarks.md,
"fifth pass"). These are the encoder's own matrices for
:data:`~companion.vision.payload.CARD_PAYLOADS`, packed row by row
(``np.packbits``, base64); tests/vision/test_card_codes.py checks each
against :func:`companion.vision.stickers.encode_qr`, and ``python -m
companion.vision.card_codes`` prints the table anew.
"""

from __future__ import annotations

import base64

import numpy as np
import numpy.typing as npt

SIDE = 21  # modules of a version-1 code (stickers.QR_MODULES; this module is imported by stickers)

STORED: dict[str, str] = {
    "MDL-R01": "/mP8FJButrt1FdusLsFZB/qv4AYAJ6Xx7SrmxOSrnl46OABPL/vA0F3TuiJd0MMuu2cEYt/m34A=",
    "MDL-R02": "/nP8F5Buurt15duorsFNB/qv4AwAJ+31bQrMneW60l9zOABHL/tY0FeTukRd0XMuvWcEcd/g/4A=",
    "MDL-R03": "/gv8EhBuvrt11duiLsEJB/qv4A4AGwhnR5+Zn0Goq5L8uABPM/p58E7GuqLN1WQunucEB6/jmwA=",
    "MDL-R04": "/iv8EBBuqLt15dulrsEVB/qv4AgAG1hjIk+PjUB4p59juABmM/sJ8E9GusLN1OQujmcECK/miwA=",
    "MDL-R05": "/mP8ERBumrt0RduprsEBB/qv4BgAM+aFipPs1Ij4l3Q3VYBnC/tFcE83uknt1deuoFEEWk/gWQA=",
    "MDL-R06": "/sP8EtBurLt0dduorsEBB/qv4BEABkKoza+ru1J7ghOlOABiP/hrsFkGunSF0QIui+cEfZ/gogA=",
    "MDL-R07": "/gv8E9Bulrt01dutrsENB/qv4BEAM96GZXPBxgjj03jx1YBgC/q1cEl3um3t1beupdEEI0/kOQA=",
    "MDL-R08": "/iP8FRBulLt0dduiLsFNB/qv4BEAD2sVrMsniWrxGdas5AB1M/owMFjruoed0VLukWkES1/iS4A=",
    "MDL-R09": "/iv8FJButrt19dutrsFRB/qv4AwAJ+31z3rYoWXD8lrkeAB9L/tg0FrTujRd0PMusWcEwt/nF4A=",
    "MDL-R10": "/iv8FVBurLt19duprsFpB/qv4AsAJ/X2bZrX7WQwAlO8mABeL/pw0FETumAd0mAuvf8EcB/lP4A=",
    "MDL-R11": "/oP8FxBunLt1NduuLsFRB/qv4AYAEkHbqPBXupXZhGtmTQBpz/gEsEe5ulPd1YjuiysE+Z/jDgA=",
    "MDL-R12": "/kP8E9BupLt1NdunrsE5B/qv4AMAG1hgxy+otsEzN596GABeM/vJ8EIGuuCN18cumH8EFW/gewA=",
    "MDL-R13": "/rv8EhBurLt0VduuLsE5B/qv4BAABgqvqO+m2dIhXhL1mABSP/gzsF4GujDF05Eum/8Ec1/gcgA=",
    "MDL-R14": "/hv8FFButrt1NduqrsFhB/qv4AcAJ+32iGrrpmTxQl9qmAB/L/uY0FrTumYd0lAuq38EbB/mD4A=",
    "MDL-R15": "/mP8FZButrt1VduqLsF5B/qv4AQAJ53x56rs7eX7SlLlGABwL/rw0FbTuiQd04AuqP8EBh/kT4A=",
    "MDL-R16": "/nP8FpBuurt1pduursFtB/qv4A4AJ9X1Z4rGtOTqBlOsGAB4L/po0FyTukId0jAurv8EFR/ib4A=",
    "MDL-R17": "/jv8E9BujLt0VduorsElB/qv4B8AM/6GigP3pAlyR3j49YB+C/ptcEm3um2t1sSuoMkEW4/lmQA=",
    "MDL-R18": "/lP8EdBumrt0hduursExB/qv4BMAM+aGzYPf04nKJ3G5tYBlC/u9cE83uhut13SuukkE9I/hQQA=",
    "MDL-O01": "/pv8FFBulrt1ZdupLsFFB/qv4AoAEiHdSVBdkpVDUGDnLQBRz/hcsEc5uke91SvujyMEbZ/lLgA=",
    "MDL-O02": "/lv8FNBuqrt1NduqrsFxB/qv4A4AJ63zY9rw1+SxklT7eABhL/vY0FfTulB90qMuvHcEnR/nf4A=",
    "MDL-O03": "/lP8FVBuiLt0tdulLsFtB/qv4BMADysTAGsP/+uDediz5ABpM/qIMFXruuO90wLunHkEFJ/iI4A=",
    "MDL-O04": "/gP8E1BuuLt1NdunrsEpB/qv4AoAGxhlLJ+zx0Fz55Tr+ABAM/uJ8E8Gutbt1zQuj3cE5G/hCwA=",
    "MDL-O05": "/gv8FpBunrt05duiLsFpB/qv4BYADwsQCnsepmtZfdijZABPM/qQMFhrusG901Luj3kEcZ/lc4A=",
    "MDL-O06": "/uv8EZBuvLt0pduqrsE9B/qv4BMABgKuw3+X8VNwwhgteABEP/jrsFlGumCl0tIuivcEkV/nIgA=",
    "MDL-O07": "/hP8EFButLt1xdujLsE9B/qv4AAAG1BhrL+ZnkBiq5Wi+ABIM/sR8EVGurDt1oQuiXcE92/nKwA=",
    "MDL-O08": "/qv8EJBukrt15duiLsEdB/qv4AcALoxOBMB29bFoEPm27QB+h/ndkFw5urct0FmupqME7r/ngoA=",
    "MDL-O09": "/gP8F9Buprt1JduvrsFtB/qv4A4AJ63zwark62TIslFsOABbL/vg0FqTuiB90yMusHcELh/gl4A=",
    "MDL-O10": "/vv8E9Burrt09dutLsEtB/qv4BIABnKswv+dz9JTWhh4mABGP/jjsFpGulyl0KIuk3cE6N/ikgA=",
    "MDL-O11": "/gP8EhBuprt1ldukrsEtB/qv4AEAGyBjrT+ToMFBM5X3GABKM/sZ8EZGuozt1PQukPcEju/imwA=",
    "MDL-O12": "/iP8EdBumLt0pdusrsE1B/qv4BgAM6aG6gPd64naR3JldYBMC/qlcEB3uiPN1aeuu0EEpQ/gKQA=",
    "MDL-O13": "/hv8FNBujLt0tdulrsF5B/qv4BcAD3sSC/sUmOp65dj2hABNM/qYMFtruv290SLulvkECB/gw4A=",
    "MDL-O14": "/vv8FNButLt09dumLsFFB/qv4BYAOu894BPhhNKymBJ19YBHv/kLsE33utql1pouqEEEdt/hogA=",
    "MDL-O15": "/uP8FNBuiLt1pduqrsFZB/qv4AIAEmncpzB6vpR7jGx0TQBUz/mksEJ5ul+91zvukyMEbR/k/gA=",
    "MDL-O16": "/pP8FhBuuLt0ZduiLsFJB/qv4B8AOtc+D/PMllKp3B6zdYBAv/j7sEu3uv6l1vourcEED9/lwgA=",
    "MDL-O17": "/ov8FhBuhLt1NduursFVB/qv4AsAElHfSNBXrBRgyGCyzQBTz/hUsEQ5unu911vulqMEFB/gngA=",
    "MDL-O18": "/uP8ERBulrt15duirsEJB/qv4AMALtxPD1BtkrCRjPnzjQBah/nNkFK5uqkt0nmurCME8j/lYoA=",
    "MDL-Y01": "/lv8FxBusLt1pdupLsFNB/qv4A0AJ5X1I3r37+QjQl1pOABbL/vA0FNbuiYd0lMus3cEvl/mn4A=",
    "MDL-Y02": "/nv8EJBuirt0xdurLsEJB/qv4BUAM4aFIRPr7YmgR3r7VYBaC/o1cEA/ui2t1seuuMEEic/lCQA=",
    "MDL-Y03": "/gP8EVBuirt0pdurrsERB/qv4BYAM/aCTtPspgiqT3d01YBVC/tdcEw/um+t1xeuu0EE48/nSQA=",
    "MDL-Y04": "/mP8F5BuiLt05dulrsFZB/qv4BwADwsVpTs0jOvQ6d33pAByM/t4MFqjupPd08LuhfkEK9/g84A=",
    "MDL-Y05": "/mv8FhBuqrt1ZduqLsFFB/qv4AEAJ431xorLpOTiAlG/OAB6L/oo0FibuiAd0mMupfcEol/lr4A=",
    "MDL-Y06": "/nv8FRBuprt1lduursFRB/qv4AsAJ8XxRqrh/eXzTlD2OAByL/qw0FLbukYd09Muo/cEsV/jj4A=",
    "MDL-Y07": "/rP8FpBuqrt0ZdulLsFtB/qv4BEAOoc6qyP929PZ1Bui1YBZv/kDsEf/urLF1EourcEESR/iogA=",
    "MDL-Y08": "/hv8FpBukrt0xdunLsFZB/qv4BoAD1sRYps2omp5xdX/5ABhM/owMFZjuoPd08LumXkEl9/iC4A=",
    "MDL-Y09": "/hP8E1ButLt1FduirsEZB/qv4AYAG0hkRH+bw0BTX5m3eABuM/sp8EEOupSN16QumXcEAi/mcwA=",
    "MDL-Y10": "/tv8FRBuuLt0VduiLsFlB/qv4BMAOoc/xWPwrtPwRBZ4tYBUv/hjsEj/uszF1+out8EEWp/lUgA=",
    "MDL-Y11": "/iP8EhBugrt0NduvLsEJB/qv4BsAM56AqqPa04lIl3v3NYB2C/q9cET/ulWt1VeutEEEhk/hyQA=",
    "MDL-Y12": "/gP8FZBuuLt1VdutLsFNB/qv4AMAJ43wqMrG0eTLklxlWAB3L/tI0Febul4d0cMuv/cEsd/iX4A=",
    "MDL-Y13": "/kv8ENBujrt0pdurLsEFB/qv4BIAM6aDRUP3wQlT03cxtYBxC/tNcEK/unGt1TeuscEE/0/lqQA=",
    "MDL-Y14": "/iv8FhBujLt05dulLsFNB/qv4BgAD1sUrqsv6+opdd2yxABWM/toMFQjuo3d0eLuj3kEN1/iE4A=",
    "MDL-Y15": "/hP8ExBumLt09dusLsEBB/qv4BcAM4aAT1PmmImJ13chNYBXC/tVcE8/ulOt1WeuosEEmk/i+QA=",
    "MDL-Y16": "/uP8FxBukrt1NdupLsFlB/qv4AEAElHa55B9hpTpXGXmDQBuz/m8sEbxuind18vunCMETl/lHgA=",
    "MDL-Y17": "/pv8FtBukrt1VduprsF9B/qv4AIAEiHdiFB6zRXjVGhpjQBhz/jUsErxumvd1hvun6MEJF/nXgA=",
    "MDL-Y18": "/lP8FxBulrt0xdunrsFNB/qv4B4ADwsQaQstxWuAWdW6hABFM/ogMFjjup3d0eLuk/kEi1/g64A=",
    "MDL-G01": "/tP8FFBulrt1BduqLsF5B/qv4AIAElnZybBPspU4kGVvLQBMz/ltsE69unvd1Rrui6sEmZ/gjgA=",
    "MDL-G02": "/hP8FNBuqrt1VduprsFNB/qv4AYAJ9X34zri9+TKUlFzeAB8L/rp0F5Xumwd0pIuuP8EaR/i34A=",
    "MDL-G03": "/mv8FRBuqrt1NdupLsFVB/qv4AUAJ6XwjPrlvGXAWlz8+ABzL/uB0FJXui4d00Iuu38EAx/gn4A=",
    "MDL-G04": "/vv8FVBusLt0ldulrsFtB/qv4BoAOsc4a2Pow9MwxBe4lYB+v/gqsErzuvjF1IsupkkEnl/m4gA=",
    "MDL-G05": "/uP8FVBujLt1xdupLsFxB/qv4A4AEkHZLEBz+ZX50Gm5LQBtz/iFsEV9un3d1SrunSsEhZ/jvgA=",
    "MDL-G06": "/iP8EZButLt1xdugrsEZB/qv4AsAG1hiQ5+M9cETY52leABaM/tI8EDCus6N12Uujn8EaW/gywA=",
    "MDL-G07": "/mv8EJBuhrt0ZdusrsENB/qv4BsAM+aE60PvrAmTU3bxlYBbC/sEcECzukWt1lauoEkEO4/mGQA=",
    "MDL-G08": "/oP8FFBuqrt0tdunLsFtB/qv4BwAOpc8rMPq7VKZ6B+w1YBtv/lisEYzuujF1IsuuskEIl/kGgA=",
    "MDL-G09": "/kv8F9Buprt1RdusrsFRB/qv4AYAJ9X3QUr2y2SzclTkOABGL/rR0FMXuhwd0xIutP8E2h/lN4A=",
    "MDL-G10": "/gP8ExBulLt0VdurrsEFB/qv4BkAM+aBhQPi2Qm6w3sr9YBWC/pkcE+zujut1fauukkEKA/h6QA=",
    "MDL-G11": "/nv8EtBulLt0NdurLsEdB/qv4BoAM5aG6sPlkoiwy3akdYBZC/sMcEOzunmt1CauuckEQg/jqQA=",
    "MDL-G12": "/lv8FVBurrt1VdupLsFZB/qv4AIAJ4X26Kr5kOUzzlE2GABYL/r50FDXunId0LIusn8EdZ/gP4A=",
    "MDL-G13": "/pP8FtBuort0pduirsFlB/qv4BgAOsc9BSPlttMZVBpi9YBzv/lKsEXzuobF1ysuvEkEjd/hEgA=",
    "MDL-G14": "/rP8FNButLt0ldulLsF5B/qv4B4AOpc5YPPzpNLJWBf99YBav/g6sERzuubF1qsurMkEgt/kAgA=",
    "MDL-G15": "/nv8F1BuuLt1ZduursFFB/qv4AQAJ9XyjXrvguTjwlypGABxL/uJ0FFXuhId0TIuov8Eep/lL4A=",
    "MDL-G16": "/mv8FFButLt1lduqLsFRB/qv4A4AJ532DVrF2+Xyjl3gGAB5L/sR0FsXunQd0IIupP8EaZ/jD4A=",
    "MDL-G17": "/hP8FZButLt19duqrsFJB/qv4A0AJ+3xYprCkGT4hlBvmAB2L/p50FcXujYd0VIup38EA5/hT4A=",
    "MDL-G18": "/nv8E9Buprt1ddumrsEBB/qv4AAAG2BkYE+4rsFYl5ku2ABqM/vg8ETCuuSN1SUunf8EsO/kswA=",
    "MDL-P01": "/rP8ERBurLt0JdupLsEpB/qv4B4ABhKoJR+Ok9MrbhxwmABEP/mbsFWGuljl0LAujO8Eut/icgA=",
    "MDL-P02": "/iP8EhBuqLt11dukrsElB/qv4AQAG3hkpT+t7kAiQ505mABPM/uR8E/Guqyt1IYuiu8Epe/mGwA=",
    "MDL-P03": "/mv8ExBumrt0dduorsExB/qv4BQAM8aCDePOt4iic3ZtdYBOC/vdcE+3uieN1bWupNkE9w/gyQA=",
    "MDL-P04": "/nv8FZBuurt11duprsF9B/qv4AAAJ83y6nru/uXgNl0pGABuL/vA0FcTuio90REuue8E3J/gb4A=",
    "MDL-P05": "/gP8FFBuurt1tdupLsFlB/qv4AMAJ731hbrptWTqPlCmmABhL/qo0FsTumg90MEuum8Etp/iL4A=",
    "MDL-P06": "/qP8FRBuurt01dumrsFVB/qv4BAAOsc9h9PYgdLb4Bc09YBNv/jrsEh3urjl1zgusdkEN9/nYgA=",
    "MDL-P07": "/hv8FtBulLt0xduiLsFtB/qv4BQAD3MRZis8xGrJmd2nBABhM/tgMFNrur390NDunGEELB/hU4A=",
    "MDL-P08": "/jP8EBBulrt0ZdutrsEtB/qv4BQAM8aCr5PaiwjbU3P6NYB0C/vlcEL3uleN1DWuqNkERA/nIQA=",
    "MDL-P09": "/qv8E9BulLt1NdumrsENB/qv4A8ALrxL6LB+zrHpuP37jQBYh/i1kF15uq1t0muus7sEoD/lgoA=",
    "MDL-P10": "/mP8FdBuprt1FduuLsFJB/qv4AoAJ633wVru4GRiSlOtmABzL/sQ0FWTujg90LEuou8EUF/gn4A=",
    "MDL-P11": "/hv8EFBuort1JdukrsENB/qv4AgAG0hl68+74sBwM54iGAB7M/ox8EzGut6t1KYugW8EJi/j+wA=",
    "MDL-P12": "/tv8EZBunrt1JdunLsEtB/qv4AkALsROhBBWp7DTpPo+TQBeh/m1kFl5uslt0nuusjsEg//hqoA=",
    "MDL-P13": "/qP8EFBunrt1RdunrsE1B/qv4AoALrRJ69BR7DHZrPexzQBRh/jdkFV5uott06uusbsE6f/j6oA=",
    "MDL-P14": "/lP8FNBuvLt11dutLsFBB/qv4AYAJ7X3JKrSq2SjCl97mABSL/r40F5Tuj490IEutG8ETF/jr4A=",
    "MDL-P15": "/qv8EVBusLt05duursEdB/qv4BQABnKtDj+OjVKpEhL0GABZP/lLsFcGukrl0RAul+8ENh/iggA=",
    "MDL-P16": "/jv8ElButLt1FdujLsERB/qv4A4AGxhhjh+t8MGgP5O9GABSM/tB8E1Gur6t1SYuke8EKS/m6wA=",
    "MDL-P17": "/nP8E1Buhrt0tduvLsEFB/qv4B4AM6aHJsPOqQkgD3jp9YBTC/sNcE03ujWN1BWuv9kEe8/gOQA=",
    "MDL-P18": "/pv8F5Buqrt0ZdukrsFlB/qv4BkAOtc/YUPL6FIqtBGotYBlv/lrsEu3upjl1sgupVkEYh/iOgA=",
    "MDL-K01": "/lP8FVBumLt0ldulrsFFB/qv4BsADzMWTesCp2pjVdQzxABZM/vRMFPnuu2d0bHulmEEtZ/iY4A=",
    "MDL-K02": "/kP8FlBulLt0ZduhLsFRB/qv4BEAD3sSzcso/mtyGdV6xABRM/tJMFmnuoud0AHukGEEpp/kQ4A=",
    "MDL-K03": "/kv8F9Butrt15duursFNB/qv4AwAJ/3yrnrX1mRA8lkyWABZL/oZ0Fufujhd0aAusG8ELx/hH4A=",
    "MDL-K04": "/lv8EVBulrt0RduvrsEBB/qv4BgAM/aCSeP3nwkCt3J2NYB5C/oEcEM7ujXt1QSurVkEBI/huQA=",
    "MDL-K05": "/pP8EFBurLt05duqrsENB/qv4BgABmqs4T+d4lOa5hki2AB7P/jasFNKuiyF0bEug28EWl/lIgA=",
    "MDL-K06": "/tP8FJBunLt15duqLsF9B/qv4A0AElHfjuBrypVoNG0+jQBPz/mFsEb1ug2d1njukDsEup/kHgA=",
    "MDL-K07": "/kv8ElBumrt0tdurLsEVB/qv4BIAM76GycPdxggT+3M/NYBxC/qccEl7ulPt1LSuq1kEF4/nmQA=",
    "MDL-K08": "/sP8ElBujrt1VdumrsE5B/qv4AYALqxIpqBWv7CTePnwTQBJh/l0kFx1up0N0oquqTsENr/jooA=",
    "MDL-K09": "/hv8FVBumLt0ddukLsFNB/qv4BEAD3sSb7s8wusLOdDthABrM/txMFTnuvud0YHunGEEFZ/jq4A=",
    "MDL-K10": "/mP8FRBunLt09dulrsFJB/qv4BwADxMQKbsei+qQwdn5JAByM/qpMFFnurGd0kHun2EEwx/iw4A=",
    "MDL-K11": "/lv8EBBuiLt05dusrsEFB/qv4BMAM86EyEPX+IkwY3Nq1YBzC/qUcEp7um/t1sSustkEbg/iKQA=",
    "MDL-K12": "/nv8F5Busrt1hduursFBB/qv4AsAJ930yirL+uSzZlT4uAByL/th0FkfumRd0lAuuW8EWZ/hv4A=",
    "MDL-K13": "/gP8FlBusrt15duuLsFZB/qv4AgAJ63zperMsWW5bll3OAB9L/oJ0FUfuiZd04Auuu8EM5/j/4A=",
    "MDL-K14": "/iP8FFBupLt11duprsFFB/qv4A4AJ/33wDrao2RpYlToOABUL/t50FSfukZd0gAuqm8EPJ/m74A=",
    "MDL-K15": "/mv8ERBukrt0JduvrsENB/qv4B8AM9aELbPrs4nxI3+81YBSC/t8cEG7umnt1vSupFkEcg/hGQA=",
    "MDL-K16": "/jv8FtBuirt0pduirsFNB/qv4BkADzMTI6sP0mpKxdnppABUM/qxMFznupOd0hHujGEEph/lk4A=",
    "MDL-K17": "/jP8ExBurLt1ddunLsENB/qv4AUAGyBmBU+is0BgX5WhOABbM/uo8EuKuoTN1ncujG8EM+/h6wA=",
    "MDL-K18": "/mv8EdBuiLt0ZdutrsEVB/qv4BoAM/aHhdPu1olSB3o7FYBOC/tccEF7ujvt1ySuu1kEpA/hoQA=",
    "MDL-A01": "/jv8EdButrt1ddulLsEBB/qv4A0AG1hmrA+ZrUGRn5F2OABaM/sw8E8OuuCN18cujn8ECi/kOwA=",
    "MDL-A02": "/hv8EhBuiLt0RdutLsEZB/qv4BQAM96D6zPX5gkK63bkVYBcC/qMcEk/uk+t1pSupckEIc/miQA=",
    "MDL-A03": "/iP8FxBunLt0VdukLsFVB/qv4BsADwMXCsselWqqSdx3pABdM/qxMFIjupHd0hHuiHEEjN/mY4A=",
    "MDL-A04": "/gP8FRBuirt0ZdujrsFJB/qv4B0AD1MTbxsIh2t6RdHopAB0M/vBMFOjuvHd05HumPEEg9/jc4A=",
    "MDL-A05": "/ov8ENBupLt0tduvLsERB/qv4BEABmKuSf+swtNIvh2gOAB4P/hKsFTOunTF0nEumP8EGh/lQgA=",
    "MDL-A06": "/sv8FBBulLt1tduvrsFhB/qv4AQAElndJiBa6hW6bGm8bQBMz/kVsEFxulXd1bjui6sE+t/kfgA=",
    "MDL-A07": "/mP8FlBupLt1dduoLsFZB/qv4AkAJ+3w40raveRT6lFmuAB7L/th0FfbumYd0lAuvX8Ec1/iT4A=",
    "MDL-A08": "/gv8FFBusrt1pduuLsFNB/qv4AUAJ/XwpMryymTrilgn+ABgL/qx0FFbuhAd0+Aup/8E3F/ml4A=",
    "MDL-A09": "/nP8FZBusrt1xduursFVB/qv4AYAJ4X3ywr1geXhglWoeABvL/vZ0F1bulId0jAupH8Etl/k14A=",
    "MDL-A10": "/tv8E1Bugrt15duiLsE5B/qv4AEALrxPJ6BCnbDQ0PnpjQBch/lUkFJxus1N01qusisEyn/g6oA=",
    "MDL-A11": "/nP8FBButrt1JduvrsFJB/qv4AgAJ53y4srQg2VwclEzWAB5L/tp0FTbulod0CAupP8ECt/n/4A=",
    "MDL-A12": "/lP8E5BujLt0RdutrsENB/qv4BAAM46C4KPMgQjzd3ahNYB4C/qccEe/ulGt1LSur0kEPU/kaQA=",
}


def stored_matrix(payload: str) -> npt.NDArray[np.bool_] | None:
    """The stored module matrix of a card payload (True for dark, read-only), or None if not stored."""
    packed = STORED.get(payload)
    if packed is None:
        return None
    bits = np.unpackbits(np.frombuffer(base64.b64decode(packed), np.uint8))[: SIDE * SIDE]
    modules: npt.NDArray[np.bool_] = bits.reshape(SIDE, SIDE).astype(bool)
    modules.setflags(write=False)
    return modules


def _table() -> str:
    """The STORED table's lines, encoded afresh."""
    from companion.vision.payload import CARD_PAYLOADS
    from companion.vision.stickers import encode_qr

    lines = []
    for payload in CARD_PAYLOADS:
        modules = encode_qr(payload)
        assert modules is not None and modules.shape == (SIDE, SIDE), payload
        lines.append(f'    "{payload}": "{base64.b64encode(np.packbits(modules.ravel()).tobytes()).decode()}",')
    return "\n".join(lines)


if __name__ == "__main__":
    print(_table())
