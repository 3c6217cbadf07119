"""Small hand-written pages shared by the tests of webclean/methods."""

ZH_PARAGRAPHS = [
    "新华社北京3月5日电 北京市今天举行春季义务植树活动，数千名市民来到郊区参加植树。",
    "活动组织者说，今年计划新增绿化面积两万亩，种植各类树木一百万株。",
    "参加活动的市民表示，植树既锻炼了身体，也为城市环境做出了贡献。",
]
ZH_PAGE = (
    "<html><head><meta charset='utf-8'><title>北京举行春季植树活动_新闻中心</title></head><body>"
    "<div class='nav'><a href='/'>首页</a> <a href='/news'>新闻</a> <a href='/sports'>体育</a> <a href='/ent'>娱乐</a></div>"
    "<div class='today'>2024年1月1日 星期一</div>"
    "<h1>北京举行春季植树活动</h1>"
    "<div class='info'>2005-6-12 21:37:05 来源：新华社 作者：张三</div>"
    "<div class='article'>" + "".join(f"<p>{p}</p>" for p in ZH_PARAGRAPHS) + "</div>"
    "<div class='related'><a href='/1'>相关新闻：上海植树节活动举行</a><br><a href='/2'>相关新闻：广州绿化工作会议召开</a>"
    "<br><a href='/3'>相关新闻：天津春季造林开始</a></div>"
    "<div class='footer'><p>版权所有 © 2005 新闻中心 联系我们</p></div>"
    "</body></html>"
)

EN_PARAGRAPHS = [
    "The night bus along the river route returns on Monday after a year without service, the transport board said on Friday.",
    "Buses will leave the central station every twenty minutes between midnight and five in the morning.",
    "Shift workers at the hospital had asked for the route to come back since it was cut last spring.",
]
EN_PAGE = (
    "<html><head><meta charset='utf-8'><title>Night buses return | City Gazette</title>"
    "<meta property='og:site_name' content='City Gazette'>"
    "<meta property='article:published_time' content='2022-03-05T08:30:00+01:00'></head><body>"
    "<ul class='menu'><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li><li><a href='/sport'>Sport</a></li></ul>"
    "<h1>Night buses return</h1>"
    "<div class='article'>" + "".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS) + "</div>"
    "<div class='more'><a href='/a'>Trams to run later on weekends</a><br><a href='/b'>New cycle lane opens on the bridge</a>"
    "<br><a href='/c'>Fares to stay the same next year</a></div>"
    "<div class='footer'>Copyright 2022 City Gazette. All rights reserved. <a href='/privacy'>Privacy policy</a></div>"
    "</body></html>"
)
